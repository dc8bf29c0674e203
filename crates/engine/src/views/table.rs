//! Server-side tables and how `kubectl get` prints them.
//!
//! Like the API server's table convertor, each printer produces every cell of a row (wide
//! columns included); kubectl keeps the priority-0 columns unless `-o wide`, upper-cases the
//! column names for the header, prepends `NAMESPACE` for `-A`, and writes everything through
//! the table tab writer. An empty list prints nothing on stdout and kubectl says
//! `No resources found in <ns> namespace.` (namespaced kinds) or `No resources found`.

use super::format::table_cell;
use super::tabwriter::TabWriter;

/// A column of a table: its name (as the server defines it) and whether only `-o wide`
/// shows it (priority > 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    pub wide: bool,
}

pub(crate) const fn col(name: &'static str) -> Column {
    Column { name, wide: false }
}

pub(crate) const fn wide(name: &'static str) -> Column {
    Column { name, wide: true }
}

/// One row: the object's namespace (for `-A`) and its cells, one per column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub namespace: String,
    pub cells: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub columns: &'static [Column],
    pub rows: Vec<Row>,
}

/// The printing flags of `kubectl get` that the lab uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GetOptions {
    /// `-o wide`
    pub wide: bool,
    /// `-A`: a NAMESPACE column (for namespaced kinds).
    pub all_namespaces: bool,
}

impl Table {
    /// The header line, tab-separated.
    pub(crate) fn header_line(&self, opts: GetOptions, with_namespace: bool) -> String {
        let mut names: Vec<String> = Vec::new();
        if with_namespace {
            names.push("NAMESPACE".to_string());
        }
        names.extend(self.columns.iter().filter(|c| opts.wide || !c.wide).map(|c| c.name.to_uppercase()));
        let mut line = names.join("\t");
        line.push('\n');
        line
    }

    /// A row line, tab-separated.
    pub(crate) fn row_line(&self, row: &Row, opts: GetOptions, with_namespace: bool) -> String {
        let mut cells: Vec<String> = Vec::new();
        if with_namespace {
            cells.push(row.namespace.clone());
        }
        for (c, cell) in self.columns.iter().zip(&row.cells) {
            if opts.wide || !c.wide {
                cells.push(table_cell(cell));
            }
        }
        let mut line = cells.join("\t");
        line.push('\n');
        line
    }
}

/// What `kubectl get <kind>` prints for this table: the aligned table, or the
/// "No resources found" line when there is no row.
pub fn render_get(table: &Table, opts: GetOptions, namespaced: bool, namespace: &str) -> String {
    if table.rows.is_empty() {
        return no_resources(namespaced && !opts.all_namespaces, namespace);
    }
    let with_namespace = namespaced && opts.all_namespaces;
    let mut w = TabWriter::for_tables();
    w.write(&table.header_line(opts, with_namespace));
    for row in &table.rows {
        w.write(&table.row_line(row, opts, with_namespace));
    }
    w.finish()
}

/// kubectl's message (on stderr) for an empty result.
pub fn no_resources(in_namespace: bool, namespace: &str) -> String {
    if in_namespace {
        format!("No resources found in {namespace} namespace.\n")
    } else {
        "No resources found\n".to_string()
    }
}
