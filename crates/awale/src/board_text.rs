//! The board drawn in a terminal: South at the bottom, both stores, holes
//! labelled with their letters, krou holes (12 seeds or more) marked. The
//! seeds are counted, or drawn as dots without a number (play without
//! counting).

use crate::words::Lang;
use awale_core::{Direction, Position, Side};

/// How the seeds of holes and stores are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seeds {
    /// As numbers.
    Counted,
    /// As dots, eight to a braille character, and no number anywhere: to
    /// estimate at a glance instead of counting.
    Uncounted,
}

/// Draws `position` as seen by South, laid out for `direction`, the rows
/// named in `lang`. `last` is a hole to mark as the one just sown.
pub fn draw(position: &Position, direction: Direction, last: Option<usize>, lang: Lang) -> String {
    draw_seeds(position, direction, last, lang, Seeds::Counted)
}

/// `n` seeds as braille dots, eight a character, the last one partly
/// filled, in at most `width` characters (a `+` at the end if they do not
/// fit).
fn dots(n: u8, width: usize) -> String {
    // Dots added in reading order: left-right, top to bottom.
    const PARTIAL: [char; 8] = [' ', '⠁', '⠉', '⠋', '⠛', '⠟', '⠿', '⡿'];
    let mut out: String = "⣿".repeat(usize::from(n / 8));
    let rest = usize::from(n % 8);
    if rest > 0 {
        out.push(PARTIAL[rest]);
    }
    if out.chars().count() > width {
        out = "⣿".repeat(width - 1) + "+";
    }
    out
}

/// As [`draw`], with the seeds shown as `seeds` says.
pub fn draw_seeds(
    position: &Position,
    direction: Direction,
    last: Option<usize>,
    lang: Lang,
    seeds: Seeds,
) -> String {
    let (north_label, south_label) = match lang {
        Lang::Fr => ("Nord ", "Sud"),
        Lang::En => ("North", "South"),
    };
    let holes = position.holes();
    let counted = seeds == Seeds::Counted;
    // Inside width of a cell: 2 digits or 3 braille characters, and the
    // krou mark.
    let width = if counted { 3 } else { 4 };
    let label = |h: usize| -> char {
        if h < 6 {
            (b'A' + h as u8) as char
        } else {
            (b'a' + h as u8 - 6) as char
        }
    };
    let cell = |h: usize| -> String {
        let krou = if holes[h] >= 12 { "*" } else { " " };
        if counted {
            format!("{:>2}{krou}", holes[h])
        } else {
            format!("{:<3}{krou}", dots(holes[h], 3))
        }
    };
    let top = direction.columns(Side::North);
    let bottom = direction.columns(Side::South);
    let letters = |row: &[usize; 6]| -> String {
        row.iter()
            .map(|&h| {
                let mark = if Some(h) == last { '\'' } else { ' ' };
                let pad = " ".repeat(width - 3);
                format!("  {}{mark}{pad}", label(h))
            })
            .collect()
    };
    let cells =
        |row: &[usize; 6]| -> String { row.iter().map(|&h| format!("│{}", cell(h))).collect() };
    let [south, north] = position.stores();
    let bar = "─".repeat(width);
    let rule = |l: char, m: char, r: char| format!("{l}{}{bar}{r}", format!("{bar}{m}").repeat(5));
    let (north, south) = if counted {
        (format!("  {north:>2}  "), format!("{south:>2}"))
    } else {
        (format!("{:>6}", dots(north, 6)), dots(south, 6))
    };
    let mut out = String::new();
    out.push_str(&format!("         {}\n", letters(&top)));
    out.push_str(&format!("         {}\n", rule('┌', '┬', '┐')));
    out.push_str(&format!("  {north_label}  {}│\n", cells(&top)));
    out.push_str(&format!(" {north}  {}  {south}\n", rule('├', '┼', '┤')));
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
    fn uncounted_seeds_show_no_number_and_as_many_dots_as_seeds() {
        let p: Position = "0-1-2-0-0-25-12-0-0-0-0-0-3-5-N".parse().unwrap();
        let text = draw_seeds(
            &p,
            Direction::CounterClockwise,
            Some(3),
            Lang::En,
            Seeds::Uncounted,
        );
        assert!(!text.chars().any(|c| c.is_ascii_digit()), "{text}");
        // Braille dots: one bit a dot above U+2800.
        let count = |s: &str| -> u32 {
            s.chars()
                .filter(|c| ('\u{2800}'..='\u{28FF}').contains(c))
                .map(|c| (c as u32 - 0x2800).count_ones())
                .sum()
        };
        // Every seed but those of the hole too big to draw (25: 16 dots
        // and a `+`) is there.
        assert_eq!(count(&text), 1 + 2 + 16 + 12 + 3 + 5);
        assert!(text.contains("⣿⣿+"), "{text}");
        // The same lines, one cell wider, as the counted board.
        let counted = draw(&p, Direction::CounterClockwise, Some(3), Lang::En);
        assert_eq!(text.lines().count(), counted.lines().count());
        for line in text.lines() {
            assert!(line.chars().count() <= 9 + 6 * 5 + 1 + 8, "{line}");
        }
    }

    #[test]
    fn krou_holes_are_marked() {
        let p: Position = "12-0-0-0-0-0-0-0-0-0-0-1-0-0-S".parse().unwrap();
        assert!(draw(&p, Direction::CounterClockwise, None, Lang::En).contains("12*"));
    }
}
