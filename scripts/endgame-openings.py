"""Few-seed abapa endgames from match records: the moves of each game up to
the first position with at most MAX seeds on the board, stores within DIFF
and neither above 24 (the game still open). One line of moves each."""
import re, sys
MAX, DIFF = int(sys.argv[1]), int(sys.argv[2])
out = set()
for path in sys.argv[3:]:
    text = open(path).read()
    for game in text.split('[Event')[1:]:
        body = game.split('\n\n', 1)[1]
        tokens = re.findall(r'\b([A-Fa-f])(\+\d+)?', re.sub(r'\d+\.', ' ', body))
        stores = [0, 0]
        moves = []
        for letter, cap in tokens:
            side = 0 if letter.isupper() else 1
            moves.append(letter)
            if cap:
                stores[side] += int(cap[1:])
            on_board = 48 - sum(stores)
            if on_board <= MAX and abs(stores[0] - stores[1]) <= DIFF and max(stores) <= 24:
                out.add(''.join(moves))
                break
for line in sorted(out):
    print(line)
