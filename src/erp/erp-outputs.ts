/**
 * The ERP outputs of an installation, loaded once at start (ERP_OUTPUTS, ERP_OUTPUTS_DIR, VENDOR_XREF_FILE and the
 * ERP_* constants): every problem is one line of a ConfigError, so the worker refuses to start instead of failing
 * at the first award. planErpFiles turns one award into every profile's files, or says which winners hold it.
 */
import { join } from 'node:path';
import { ConfigError, VendorXrefError } from '../core/index.ts';
import { ERP_CONSTANT_NAMES, type erpSettings, type Folders, type SettingValues } from '../settings/index.ts';
import type { ErpAward } from './award.ts';
import type { ErpProfile } from './output-profile.ts';
import { groupPos, missingVendors, type MissingVendor } from './po-grouping.ts';
import { loadOutputProfiles } from './profile-files.ts';
import { renderProfile } from './render.ts';
import { openVendorXref, type VendorXref } from './vendor-xref.ts';

export type ErpConfig = SettingValues<typeof erpSettings> & {
  folders: Pick<Folders, 'erp' | 'erpProfiles' | 'erpShipped'>;
};

export interface ErpOutputs {
  profiles: ErpProfile[];
  /** The ERP_* constants as set. */
  settings: Readonly<Record<string, string | undefined>>;
  xref: VendorXref | undefined;
  /** `<outbox>/erp`: each profile writes into its own folder under it. */
  folder: string;
  /** What the profiles read from the cross-reference: a winner without any of it holds the RFQ's ERP files. */
  vendorFields: string[];
}

/** The ERP outputs ERP_OUTPUTS names, or undefined when it names none; a ConfigError listing every problem. */
export async function loadErpOutputs(config: ErpConfig): Promise<ErpOutputs | undefined> {
  if (config.ERP_OUTPUTS.length === 0) return undefined;
  const { profiles, problems } = await loadOutputProfiles(
    config.ERP_OUTPUTS,
    config.folders.erpProfiles,
    config.folders.erpShipped,
  );
  const settings: Record<string, string | undefined> = {};
  for (const name of ERP_CONSTANT_NAMES)
    settings[name] = (config as unknown as Record<string, string | undefined>)[name];
  for (const p of profiles)
    for (const s of p.settings)
      if (settings[s] === undefined)
        problems.push(`${s}: required by the output profile ${p.name} (${p.file}), which ERP_OUTPUTS names: not set`);
  const vendorFields = [...new Set(profiles.flatMap((p) => p.vendorFields))];
  let xref: VendorXref | undefined;
  if (config.VENDOR_XREF_FILE === undefined) {
    if (vendorFields.length > 0)
      problems.push(
        `VENDOR_XREF_FILE: required by ${profiles
          .filter((p) => p.vendorFields.length > 0)
          .map((p) => p.name)
          .join(', ')}: the ERP's vendor of each supplier (rfq-sync vendors --xref-draft FILE writes a draft)`,
      );
  } else
    xref = await openVendorXref(config.VENDOR_XREF_FILE, {
      company: config.ERP_COMPANY_CODE,
      plant: config.ERP_PLANT,
    }).catch((err: unknown) => {
      if (!(err instanceof VendorXrefError)) throw err;
      problems.push(`VENDOR_XREF_FILE: ${err.message}`);
      return undefined;
    });
  if (problems.length > 0) throw new ConfigError(problems);
  return { profiles, settings, xref, folder: config.folders.erp, vendorFields };
}

export interface PlannedFile {
  profile: string;
  path: string;
  data: Buffer;
}

export type ErpPlan =
  { held: MissingVendor[]; files?: undefined } | { files: PlannedFile[]; warnings: string[]; held?: undefined };

/** The folder a profile writes into. */
export function profileFolder(outputs: Pick<ErpOutputs, 'folder'>, profile: string): string {
  return join(outputs.folder, profile);
}

/** Every profile's files for `award`, or the winners the cross-reference does not know yet (then nothing is written). */
export async function planErpFiles(outputs: ErpOutputs, award: ErpAward): Promise<ErpPlan> {
  // An award without an awarded line orders nothing: no file (the award file says so with its empty table).
  if (award.lines.length === 0) return { files: [], warnings: [] };
  const index = await outputs.xref?.current();
  const vendorOf = (key: string, name: string) => index?.vendorOf(key, name);
  const held = missingVendors(award, outputs.vendorFields, vendorOf);
  if (held.length > 0) return { held };
  const files: PlannedFile[] = [];
  const warnings: string[] = [];
  for (const profile of outputs.profiles) {
    const r = await renderProfile(profile, award, groupPos(award, profile.groupBy, vendorOf), outputs.settings);
    for (const f of r.files)
      files.push({ profile: profile.name, path: join(profileFolder(outputs, profile.name), f.name), data: f.data });
    warnings.push(...r.warnings.map((w) => `${profile.name}: ${w}`));
  }
  return { files, warnings };
}
