// Package table writes and reads the Parquet tables of an experiment's
// results: one file per table, one plain row struct per table, one Parquet
// column per exported field (RuleParams's fields counted one by one).
//
// The package knows nothing of YAML or of the simulation; the runner turns
// accumulators into rows and hands them here, and `experiment plot` (or a
// notebook) reads them back. docs/tables.md documents every column; a test
// keeps that page and the column lists below in step.
//
// The layout is schema version 2 (SchemaVersion, stored in every file):
// int64 counts, null for undefined or inapplicable values (NaN, "" or an
// invalid NullInt64 in the Go rows), ordered dictionaries for categorical
// columns, the experiment and the rule's parameters in every row that has a
// rule, and each column's unit and description from docs/tables.md as Arrow
// field metadata. Readers refuse files of another version.
//
// Every file is zstd-compressed, carries the run's Metadata (with the
// resolved configuration and the writing binary's provenance, but no time)
// as Parquet key-value metadata, and is written to a temporary file in the target
// directory and renamed into place, so a crash never leaves a half-written
// file under the final name.
package table
