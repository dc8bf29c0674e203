//! Go's `text/tabwriter` (the elastic tabstops algorithm), which every kubectl printer
//! writes through, in the two configurations kubectl uses:
//!
//! * tables (`kubectl get`, cli-runtime's `GetNewTabWriter`): minimum cell width 6,
//!   padding 3, space padding and `RememberWidths` (the `liggitt/tabwriter` fork), so a
//!   column never shrinks after a flush — that is why the rows of `kubectl get -w` stay
//!   aligned with the header, and push later columns right when a cell is wider;
//! * describers (`describe.go`'s `tabbedString`): minimum width 0, padding 2.
//!
//! Cells are terminated by `\t` (or `\v`); text after the last tab of a line is not part of
//! a column and is never padded. Consecutive lines that have a cell in a column form a
//! block with one width; a line without that cell ends the block. A line with no tab at
//! all flushes the writer, as upstream does.

/// One cell: its text and width in characters (runes).
#[derive(Clone, Debug)]
struct Cell {
    text: String,
    width: usize,
}

#[derive(Clone, Debug)]
pub struct TabWriter {
    minwidth: usize,
    padding: usize,
    remember_widths: bool,
    out: String,
    lines: Vec<Vec<Cell>>,
    cell: String,
    widths: Vec<usize>,
    max_widths: Vec<usize>,
}

impl TabWriter {
    pub fn new(minwidth: usize, padding: usize, remember_widths: bool) -> TabWriter {
        TabWriter {
            minwidth,
            padding,
            remember_widths,
            out: String::new(),
            lines: vec![Vec::new()],
            cell: String::new(),
            widths: Vec::new(),
            max_widths: Vec::new(),
        }
    }

    /// The writer of `kubectl get` tables.
    pub fn for_tables() -> TabWriter {
        TabWriter::new(6, 3, true)
    }

    /// The writer of `kubectl describe`.
    pub fn for_describe() -> TabWriter {
        TabWriter::new(0, 2, false)
    }

    pub fn write(&mut self, text: &str) {
        for ch in text.chars() {
            match ch {
                '\t' | '\u{b}' | '\n' | '\u{c}' => {
                    let ncells = self.terminate_cell();
                    if ch == '\n' || ch == '\u{c}' {
                        self.lines.push(Vec::new());
                        if ch == '\u{c}' || ncells == 1 {
                            self.flush();
                        }
                    }
                }
                _ => self.cell.push(ch),
            }
        }
    }

    fn terminate_cell(&mut self) -> usize {
        let text = std::mem::take(&mut self.cell);
        let width = text.chars().count();
        let line = self.lines.last_mut().expect("there is always a current line");
        line.push(Cell { text, width });
        line.len()
    }

    /// Formats and emits everything buffered. Remembered widths survive a flush.
    pub fn flush(&mut self) {
        if !self.cell.is_empty() {
            self.terminate_cell();
        }
        let n = self.lines.len();
        self.format(0, n);
        self.lines = vec![Vec::new()];
        self.widths.clear();
    }

    /// Flushes and returns everything written so far.
    pub fn finish(mut self) -> String {
        self.flush();
        self.out
    }

    /// The output emitted so far (flushed text only).
    pub fn output(&self) -> &str {
        &self.out
    }

    fn format(&mut self, mut line0: usize, line1: usize) {
        let column = self.widths.len();
        let mut this = line0;
        while this < line1 {
            if column + 1 >= self.lines[this].len() {
                this += 1;
                continue;
            }
            // A cell exists in this column: print the lines before the block, then find
            // the block's extent and width.
            self.write_lines(line0, this);
            line0 = this;
            let mut width = self.minwidth;
            while this < line1 {
                let line = &self.lines[this];
                if column + 1 >= line.len() {
                    break;
                }
                width = width.max(line[column].width + self.padding);
                this += 1;
            }
            if self.remember_widths {
                if self.max_widths.len() < self.widths.len() {
                    let from = self.max_widths.len();
                    let missing = self.widths[from..].to_vec();
                    self.max_widths.extend(missing);
                }
                let k = self.widths.len();
                if self.max_widths.len() == k {
                    self.max_widths.push(width);
                } else if self.max_widths[k] > width {
                    width = self.max_widths[k];
                } else {
                    self.max_widths[k] = width;
                }
            }
            self.widths.push(width);
            self.format(line0, this);
            self.widths.pop();
            line0 = this;
        }
        self.write_lines(line0, line1);
    }

    fn write_lines(&mut self, line0: usize, line1: usize) {
        for i in line0..line1 {
            for (j, c) in self.lines[i].iter().enumerate() {
                self.out.push_str(&c.text);
                if j < self.widths.len() {
                    let pad = self.widths[j].saturating_sub(c.width);
                    self.out.extend(std::iter::repeat_n(' ', pad));
                }
            }
            if i + 1 == self.lines.len() {
                // The last buffered line has no newline yet: only its pending text.
                self.out.push_str(&self.cell);
            } else {
                self.out.push('\n');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_align_per_block_and_the_last_cell_is_not_padded() {
        let mut w = TabWriter::for_describe();
        w.write("Name:\tweb\nNamespace:\tdefault\nContainers:\n  web:\n    Image:\tnginx\n    Port:\t80/TCP\n");
        assert_eq!(
            w.finish(),
            "Name:       web\nNamespace:  default\nContainers:\n  web:\n    Image:  nginx\n    Port:   80/TCP\n"
        );
    }

    #[test]
    fn remembered_widths_keep_columns_from_shrinking_after_a_flush() {
        let mut w = TabWriter::for_tables();
        w.write("NAME\tREADY\tSTATUS\nweb\t0/1\tPending\n");
        w.flush();
        w.write("web\t0/1\tContainerCreating\n");
        w.flush();
        w.write("longer-name-here\t1/1\tRunning\n");
        w.flush();
        assert_eq!(
            w.finish(),
            "NAME   READY   STATUS\nweb    0/1     Pending\nweb    0/1     ContainerCreating\nlonger-name-here   1/1     Running\n"
        );
    }

    #[test]
    fn minimum_width_applies_to_narrow_columns() {
        let mut w = TabWriter::for_tables();
        w.write("A\tB\tC\nx\ty\tz\n");
        assert_eq!(w.finish(), "A     B     C\nx     y     z\n");
    }
}
