//! The board drawn in a terminal: South at the bottom, both stores, holes
//! labelled with their letters, krou holes (12 seeds or more) marked.

use awale_core::{Direction, Position, Side};
use awale_engine::Lang;

/// Draws `position` as seen by South, laid out for `direction`, the rows
/// named in `lang`. `last` is a hole to mark as the one just sown.
pub fn draw(position: &Position, direction: Direction, last: Option<usize>, lang: Lang) -> String {
    let (north_label, south_label) = match lang {
        Lang::Fr => ("Nord ", "Sud"),
        Lang::En => ("North", "South"),
    };
    let holes = position.holes();
    let label = |h: usize| -> char {
        if h < 6 {
            (b'A' + h as u8) as char
        } else {
            (b'a' + h as u8 - 6) as char
        }
    };
    let cell = |h: usize| -> String {
        let krou = if holes[h] >= 12 { "*" } else { " " };
        format!("{:>2}{krou}", holes[h])
    };
    let top = direction.columns(Side::North);
    let bottom = direction.columns(Side::South);
    let letters = |row: &[usize; 6]| -> String {
        row.iter()
            .map(|&h| {
                let mark = if Some(h) == last { '\'' } else { ' ' };
                format!("  {}{mark}", label(h))
            })
            .collect()
    };
    let cells =
        |row: &[usize; 6]| -> String { row.iter().map(|&h| format!("│{}", cell(h))).collect() };
    let [south, north] = position.stores();
    let rule = |l: char, m: char, r: char| format!("{l}{}───{r}", format!("───{m}").repeat(5));
    let mut out = String::new();
    out.push_str(&format!("         {}\n", letters(&top)));
    out.push_str(&format!("         {}\n", rule('┌', '┬', '┐')));
    out.push_str(&format!("  {north_label}  {}│\n", cells(&top)));
    out.push_str(&format!(
        "   {north:>2}    {}  {south:>2}\n",
        rule('├', '┼', '┤')
    ));
    out.push_str(&format!("         {}│  {south_label}\n", cells(&bottom)));
    out.push_str(&format!("         {}\n", rule('└', '┴', '┘')));
    out.push_str(&format!("         {}\n", letters(&bottom)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clockwise_drawing_is_the_mirror_image() {
        let p: Position = "1-2-3-4-5-6-7-8-9-0-1-2-0-0-S".parse().unwrap();
        let ccw = draw(&p, Direction::CounterClockwise, None, Lang::En);
        let cw = draw(&p, Direction::Clockwise, None, Lang::En);
        // The rows of numbers read backwards.
        let numbers = |s: &str, line: usize| -> Vec<String> {
            s.lines()
                .nth(line)
                .unwrap()
                .split('│')
                .skip(1)
                .take(6)
                .map(|c| c.trim().to_string())
                .collect()
        };
        for line in [2, 4] {
            let mut a = numbers(&ccw, line);
            a.reverse();
            assert_eq!(a, numbers(&cw, line));
        }
        assert!(ccw.lines().last().unwrap().trim_start().starts_with('A'));
        assert!(cw.lines().last().unwrap().trim_start().starts_with('F'));
    }

    #[test]
    fn rows_are_named_in_the_players_language() {
        let [fr, en] = [Lang::Fr, Lang::En]
            .map(|lang| draw(&Position::START, Direction::CounterClockwise, None, lang));
        assert!(fr.contains("Nord") && fr.contains("Sud"), "{fr}");
        assert!(!fr.contains("North") && !fr.contains("South"), "{fr}");
        assert!(en.contains("North") && en.contains("South"), "{en}");
        // The rows line up in both languages.
        let widths = |s: &str| s.lines().map(|l| l.chars().count()).collect::<Vec<_>>();
        assert_eq!(widths(&fr)[..4], widths(&en)[..4]);
    }

    #[test]
    fn krou_holes_are_marked() {
        let p: Position = "12-0-0-0-0-0-0-0-0-0-0-1-0-0-S".parse().unwrap();
        assert!(draw(&p, Direction::CounterClockwise, None, Lang::En).contains("12*"));
    }
}
