/**
 * Settings: The data folders and the inbox: where files go, how they are watched, swept, kept and bounded.
 * Part of the one configuration schema (src/settings/config.ts); each default is documented above its field, and the table
 * of docs/operations.md is generated from these comments (scripts/config-doc.ts).
 */
import { z } from 'zod';
import { int, bool, cron } from './fields.ts';

export const folderSettings = {
  /** Root of inbox/ processing/ archive/ failed/ outbox/. Default `./rfq-sync-data`. */
  RFQ_SYNC_DIR: z.string().min(1).default('./rfq-sync-data'),
  /** Where ERP exports are dropped. Default `<RFQ_SYNC_DIR>/inbox`; must be on the same file system as PROCESSING_DIR. */
  INBOX_DIR: z.string().min(1).optional(),
  /** Files being read. Default `<RFQ_SYNC_DIR>/processing`. */
  PROCESSING_DIR: z.string().min(1).optional(),
  /** Files read (even with rejected rows). Default `<RFQ_SYNC_DIR>/archive`. */
  ARCHIVE_DIR: z.string().min(1).optional(),
  /** Files that could not be read at all. Default `<RFQ_SYNC_DIR>/failed`. */
  FAILED_DIR: z.string().min(1).optional(),
  /** comparisons/*.xlsx, awards/*.csv, erp/<profile>/*, reports/*. Default `<RFQ_SYNC_DIR>/outbox`. */
  OUTBOX_DIR: z.string().min(1).optional(),
  /** Mapping profiles. Default: the `mappings/` shipped with rfq-sync. */
  MAPPINGS_DIR: z.string().min(1).optional(),
  /**
   * How often a worker looks for changed mapping profiles, ms: each change is a reload (broken profiles said in the
   * log, `status` and /readyz; files held for a broken profile taken once it is fixed). Default 5,000.
   */
  MAPPINGS_CHECK_MS: int(200, 3_600_000).default(5_000),

  /**
   * Whether this worker takes files: watches the inbox and reads the files (the ingest queue). One data folder does
   * intake for an account (recorded in Redis by the first worker; a worker whose folder is another one refuses to
   * start). `off`: no inbox, no ingest; the worker creates RFQs, polls and writes outputs only: the way to add
   * workers on hosts without the share. Default on.
   */
  INTAKE: bool.default(true),
  /** Watch the inbox by polling (SMB/NFS shares, where file events do not arrive). Default false. */
  WATCH_POLLING: bool.default(false),
  /** Polling interval of the watcher when WATCH_POLLING is on, ms. Default 2,000. */
  WATCH_INTERVAL_MS: int(100, 3_600_000).default(2_000),
  /** A file is taken only when its size and mtime have not changed for this long, ms. Default 2,000. */
  FILE_STABLE_MS: int(0, 3_600_000).default(2_000),
  /**
   * Suffix of the marker file an ERP writes when an export is complete (e.g. `.done`, `.ok`, `.ready`): with it set,
   * `<name>` is taken only once `<name><suffix>` exists (FILE_STABLE_MS still applies when the marker is older than
   * the file), and the marker is removed with the file; a marker alone is ignored. Default: unset, files are taken
   * once their size and mtime stayed still for FILE_STABLE_MS.
   */
  INBOX_DONE_SUFFIX: z
    .string()
    .regex(/^\.[A-Za-z0-9][A-Za-z0-9_-]{0,15}$/, 'must be a dot and up to 16 letters, digits, _ or -, e.g. .done')
    .refine((s) => !['.tmp', '.part', '.partial', '.filepart', '.crdownload'].includes(s.toLowerCase()), {
      message: 'names files the inbox always ignores (temporary and partial downloads)',
    })
    .optional(),
  /** Sweep of the inbox for files the watcher missed. Default every minute. */
  SWEEP_CRON: cron.default('* * * * *'),
  /**
   * Days to keep files in archive/ and failed/, file reports and finished file-ledger entries; older ones are removed
   * on RETENTION_CRON. Default 0: keep everything.
   */
  RETENTION_DAYS: int(0, 36_500).default(0),
  /**
   * Done files for the ERP: `marker` writes an empty `<award file>.done` after each award file; `manifest` writes,
   * per RFQ version, `awards/<RFQ-...-vN>.manifest.json` listing its workbook, award file and the overview with
   * sha256 and size; each after the files it names, atomically. Default `off`.
   */
  OUTBOX_DONE_FILES: z.enum(['marker', 'manifest', 'off']).default('off'),
  /** Days to keep comparison workbooks and award files in the outbox. Default 0: keep them (procurement's files). */
  OUTBOX_RETENTION_DAYS: int(0, 36_500).default(0),
  /**
   * Days of audit log files (`<RFQ_SYNC_DIR>/audit/YYYY-MM-DD.<host>.jsonl`, one line per step of each requisition,
   * read by `rfq-sync trace`) kept; older files go on the first write of each day. Default 400 (a year and a month);
   * 0 keeps them all.
   */
  AUDIT_RETENTION_DAYS: int(0, 36_500).default(400),
  /** When retention runs (on every worker; harmless twice). Default 03:30 daily. */
  RETENTION_CRON: cron.default('30 3 * * *'),
  /** Largest input file accepted, bytes. Default 256 MiB. */
  MAX_FILE_BYTES: int(1, 64 * 1024 ** 3).default(256 * 1024 ** 2),
  /** Largest total uncompressed size of an xlsx, bytes (zip bombs). Default 1 GiB. */
  MAX_XLSX_UNCOMPRESSED_BYTES: int(1, 64 * 1024 ** 3).default(1024 ** 3),
  /** Most entries in an xlsx zip. Default 10,000. */
  MAX_XLSX_ENTRIES: int(1, 10_000_000).default(10_000),
  /**
   * Memory budget, bytes, of a file parsed whole: an old binary .xls, an XML Spreadsheet 2003, or an .ods. Its size
   * (an .ods: uncompressed) times its format's measured expansion (28 for .xls, 8 for XML and .ods) must stay below
   * it, else the file is refused: at the default, .xls up to 36 MiB, XML 2003 and .ods content up to 128 MiB.
   * Default 1 GiB.
   */
  MAX_IN_MEMORY_READ_BYTES: int(1, 64 * 1024 ** 3).default(1024 ** 3),
};

/** The data folders, resolved against RFQ_SYNC_DIR at start (src/settings/config.ts). */
export interface Folders {
  root: string;
  inbox: string;
  processing: string;
  archive: string;
  failed: string;
  outbox: string;
  reports: string;
  comparisons: string;
  awards: string;
  mappings: string;
  /** `<outbox>/erp`: each output profile's files under `erp/<profile>/`. */
  erp: string;
  /** ERP_OUTPUTS_DIR (own output profiles), and the shipped ones looked in after it. */
  erpProfiles: string;
  erpShipped: string;
}
