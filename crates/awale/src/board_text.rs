//! The board drawn in a terminal: South at the bottom, both stores, holes
//! labelled with their letters, krou holes (12 seeds or more) marked.

use awale_core::{Direction, Position, Side};

/// Draws `position` as seen by South, laid out for `direction`. `last` is a
/// hole to mark as the one just sown.
pub fn draw(position: &Position, direction: Direction, last: Option<usize>) -> String {
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
    out.push_str(&format!("  North  {}│\n", cells(&top)));
    out.push_str(&format!(
        "   {north:>2}    {}  {south:>2}\n",
        rule('├', '┼', '┤')
    ));
    out.push_str(&format!("         {}│  South\n", cells(&bottom)));
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
        let ccw = draw(&p, Direction::CounterClockwise, None);
        let cw = draw(&p, Direction::Clockwise, None);
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
    fn krou_holes_are_marked() {
        let p: Position = "12-0-0-0-0-0-0-0-0-0-0-1-0-0-S".parse().unwrap();
        assert!(draw(&p, Direction::CounterClockwise, None).contains("12*"));
    }
}
