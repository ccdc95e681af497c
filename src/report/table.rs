//! Text tables, drawn in one place for every command: a header, then rows, each column as wide as
//! its widest cell (in characters), two spaces between columns, no trailing spaces.

/// A table of `N` columns.
#[derive(Clone, Debug)]
pub struct Table<const N: usize> {
    header: [String; N],
    right: [bool; N],
    rows: Vec<[String; N]>,
}

impl<const N: usize> Table<N> {
    /// A table with these column names, every column left-aligned.
    pub fn new(header: [&str; N]) -> Table<N> {
        Table { header: header.map(str::to_owned), right: [false; N], rows: Vec::new() }
    }

    /// With the columns at these indices right-aligned (counts).
    pub fn right_aligned(mut self, columns: &[usize]) -> Table<N> {
        for &column in columns {
            if let Some(right) = self.right.get_mut(column) {
                *right = true;
            }
        }
        self
    }

    /// Adds a row.
    pub fn row(&mut self, cells: [String; N]) {
        self.rows.push(cells);
    }

    /// The header and the rows, each line ending in a newline.
    pub fn render(&self) -> String {
        let mut widths = self.header.clone().map(|h| h.chars().count());
        for row in &self.rows {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let line = |cells: &[String; N]| -> String {
            let padded: Vec<String> = cells
                .iter()
                .zip(widths)
                .zip(self.right)
                .map(|((cell, width), right)| if right { format!("{cell:>width$}") } else { format!("{cell:<width$}") })
                .collect();
            padded.join("  ").trim_end().to_owned() + "\n"
        };
        let mut out = line(&self.header);
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_fit_their_widest_cell() {
        let mut table = Table::new(["file", "kept", "status"]).right_aligned(&[1]);
        table.row(["a.yaml".into(), "12".into(), "converted".into()]);
        table.row(["é".into(), "3".into(), String::new()]);
        assert_eq!(table.render(), "file    kept  status\na.yaml    12  converted\né          3\n");
    }
}
