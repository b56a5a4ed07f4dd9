/** The names of the export formats, apart from their writers, so that reading the CLI's options loads no markup code. */
export type ExportFormat = 'ane' | 'jsonl' | 'csv';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['ane', 'jsonl', 'csv'];
