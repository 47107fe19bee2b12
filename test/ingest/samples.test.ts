/**
 * Every shipped sample ingests cleanly with its profile chosen automatically, into exactly these requisitions.
 * `npm run demo` drops all samples into one inbox: their external_ids must be distinct across samples.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ingestFile, loadProfiles } from '../../src/ingest/index.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { FORMAT_SAMPLES } from './format-samples-expected.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NOW = new Date('2026-11-22T10:00:00Z');
const LIMITS = { maxFileBytes: 50 * 1024 * 1024, maxXlsxUncompressedBytes: 200 * 1024 * 1024, maxXlsxEntries: 1000 };

/** A requisition written compactly: dates as ISO, lines as [row, external_id, product, spec, uom, qty, price]. */
function compact(r: Requisition) {
  const iso = (ms?: number) => (ms === undefined ? undefined : new Date(ms).toISOString());
  return JSON.parse(
    JSON.stringify({
      key: r.key,
      title: r.title,
      description: r.description,
      due: iso(r.due_date),
      required: iso(r.required_date),
      type: r.rfq_type,
      category: r.rfq_category,
      location: r.rfq_location,
      lines: r.lines.map((l) => [
        l.row,
        l.external_id,
        l.product_name,
        l.specification ?? null,
        l.uom ?? null,
        l.qty,
        l.estimated_price ?? null,
      ]),
    }),
  );
}

const EXPECTED: Record<string, { profile: string; warnings: number; requisitions: unknown[] }> = {
  'D365_PurchReqLines.xlsx': {
    profile: 'dynamics-365',
    warnings: 2,
    requisitions: [
      {
        key: 'USMF-000231',
        title: 'USMF-000231 Spare parts line 3',
        description: 'Line 3 overhaul',
        due: '2026-12-13T22:00:00.000Z',
        required: '2027-03-01T17:00:00.000Z',
        type: 'Private',
        category: 'Components',
        location: '1',
        lines: [
          [2, 'D365-USMF-000231-1', 'Servo motor 400 W', 'M0021 With brake', 'ea', 2, 826],
          [3, 'D365-USMF-000231-2', 'Linear guide rail 800 mm', 'M0022', 'ea', 4, 384],
        ],
      },
      {
        key: 'USMF-000232',
        title: 'USMF-000232 Office refurbishment',
        description: 'Office refurbishment phase 2',
        due: '2026-12-13T22:00:00.000Z',
        required: '2027-05-03T16:00:00.000Z',
        type: 'Private',
        category: 'Facility services',
        location: '2',
        lines: [[4, 'D365-USMF-000232-1', 'Painting of meeting rooms', 'Two rooms, 120 m2', 'ea', 1, 3800]],
      },
      {
        key: 'USMF-000233',
        title: 'USMF-000233 Safety stock',
        due: '2026-12-13T22:00:00.000Z',
        required: '2027-02-15T17:00:00.000Z',
        type: 'Private',
        category: 'Safety',
        location: '1',
        lines: [
          [5, 'D365-USMF-000233-1', 'Fire extinguisher 6 kg ABC', 'S1010', 'ea', 15, 825],
          [6, 'D365-USMF-000233-2', 'First aid kit DIN 13157', 'S1011', 'ea', 10, 395],
        ],
      },
    ],
  },
  'EBS_requisition_lines.csv': {
    profile: 'oracle-ebs',
    warnings: 2,
    requisitions: [
      {
        key: '14021',
        title: 'Requisition 14021: Q1 laptop refresh',
        description: 'Preparer Stock, Pat',
        due: '2026-12-02T22:00:00.000Z',
        required: '2027-03-15T17:00:00.000Z',
        type: 'Private',
        category: 'IT hardware',
        location: 'M1- Seattle',
        lines: [
          [2, 'EBS-14021-1', 'Laptop 14" Core i7, 32 GB RAM, 1 TB SSD', 'AS54888', 'Each', 5, 6245],
          [3, 'EBS-14021-2', 'USB-C docking station', 'AS54890', 'Each', 5, 950],
        ],
      },
      {
        key: '14022',
        title: 'Requisition 14022: New hires floor 12',
        description: 'Preparer Green, Terry',
        due: '2026-12-02T22:00:00.000Z',
        required: '2027-04-01T17:00:00.000Z',
        type: 'Public',
        category: 'Furniture',
        location: 'V1- New York City',
        lines: [
          [4, 'EBS-14022-1', 'Office chair ergonomic mesh', 'CM13139', 'Each', 12, 3726],
          [5, 'EBS-14022-2', 'Height adjustable desk 160x80', 'CM13140', 'Each', 12, 6948],
          [6, 'EBS-14022-3', 'Assembly and installation service', null, 'Each', 1, 950],
        ],
      },
      {
        key: '14023',
        title: 'Requisition 14023: Lab gases Q1',
        description: 'Preparer Baker, Lee',
        due: '2026-12-02T22:00:00.000Z',
        required: '2027-02-20T18:00:00.000Z',
        type: 'Private',
        category: 'Industrial gases',
        location: 'M2- Chicago Plant',
        lines: [[7, 'EBS-14023-1', 'Nitrogen cylinder 50 L', 'PM40021', 'Each', 20, 1285]],
      },
      {
        key: '14024',
        title: 'Requisition 14024: Spare parts 2028',
        description: 'Preparer Baker, Lee',
        due: '2026-12-02T22:00:00.000Z',
        required: '2028-01-05T18:00:00.000Z',
        type: 'Private',
        category: 'Components',
        location: 'M2- Chicago Plant',
        lines: [[8, 'EBS-14024-1', 'V-belt SPA 1250', 'MRO7710', 'Each', 30, 431]],
      },
    ],
  },
  'ME5A_export_DE.csv': {
    profile: 'sap-me5a-de',
    warnings: 1,
    requisitions: [
      {
        key: '10020011',
        title: 'BANF 10020011 - Werk 1100',
        description: 'Einkäufergruppe 010, angefordert von KRÄMER',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-04-12T10:00:00.000Z',
        type: 'Private',
        category: 'Components',
        location: '1100',
        lines: [
          [5, 'SAP-10020011-10', 'Kugellager 6205-2RS C3', 'Material 400-220', 'ST', 40, 314],
          [6, 'SAP-10020011-20', 'Kugellager 6206-2RS C3', 'Material 400-221', 'ST', 40, 384],
        ],
      },
      {
        key: '10020012',
        title: 'BANF 10020012 - Werk 1100',
        description: 'Einkäufergruppe 011, angefordert von BÖHM',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-05-31T10:00:00.000Z',
        type: 'Private',
        category: 'Services',
        location: '1100',
        lines: [[7, 'SAP-10020012-10', 'Wartung Druckluftkompressor Kaeser ASD 40', null, 'LE', 1, 2350]],
      },
      {
        key: '10020013',
        title: 'BANF 10020013 - Werk 1200',
        description: 'Einkäufergruppe 012, angefordert von ÖZTÜRK',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-03-01T11:00:00.000Z',
        type: 'Private',
        category: 'Safety',
        location: '1200',
        lines: [
          [8, 'SAP-10020013-10', 'Schutzhandschuhe Nitril Größe 10', 'Material 500-010', 'PAA', 2400, 1152],
          [9, 'SAP-10020013-20', 'Gehörschutzstöpsel, Spender 500 Paar', 'Material 500-011', 'ST', 6, 569],
          [10, 'SAP-10020013-30', 'Schutzbrille getönt EN 172', 'Material 500-012', 'ST', 25, 280],
        ],
      },
    ],
  },
  'ME5A_export_EN.csv': {
    profile: 'sap-me5a-en',
    warnings: 1,
    requisitions: [
      {
        key: '10012345',
        title: 'PR 10012345 - Plant 1000',
        description: 'Purchasing group 001, requested by MUELLER',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-03-15T11:00:00.000Z',
        type: 'Private',
        category: 'Fasteners',
        location: '1000',
        lines: [
          [5, 'SAP-10012345-10', 'Hex bolt M12x60 DIN 933 8.8 zinc plated', 'Material 100-400', 'PC', 500, 62],
          [6, 'SAP-10012345-20', 'Hex nut M12 DIN 934 8 zinc plated', 'Material 100-410', 'PC', 500, 21],
          [7, 'SAP-10012345-30', 'Washer 13 mm DIN 125 zinc plated', null, 'PC', 1000, 9],
        ],
      },
      {
        key: '10012346',
        title: 'PR 10012346 - Plant 1000',
        description: 'Purchasing group 002, requested by SCHMIDT',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-02-01T11:00:00.000Z',
        type: 'Private',
        category: 'Safety',
        location: '1000',
        lines: [
          [8, 'SAP-10012346-10', 'Safety gloves EN 388 size 9', 'Material 200-115', 'PR', 120, 474],
          [9, 'SAP-10012346-20', 'Safety glasses clear EN 166', 'Material 200-120', 'PC', 60, 384],
        ],
      },
      {
        key: '10012347',
        title: 'PR 10012347 - Plant 2000',
        description: 'Purchasing group 003, requested by WAGNER',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-04-20T10:00:00.000Z',
        type: 'Private',
        category: 'Lubricants',
        location: '2000',
        lines: [[10, 'SAP-10012347-10', 'Hydraulic oil HLP 46, 208 l drum', 'Material 300-001', 'DR', 4, 2756]],
      },
      {
        key: '10012348',
        title: 'PR 10012348 - Plant 2000',
        description: 'Purchasing group 004, requested by WAGNER',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-06-30T10:00:00.000Z',
        type: 'Private',
        category: 'Services',
        location: '2000',
        lines: [
          [11, 'SAP-10012348-10', 'Calibration of torque wrenches (service)', null, 'AU', 1, 1450],
          [12, 'SAP-10012348-20', '19" server rack shelf, 1U', null, 'PC', 2, 171],
        ],
      },
    ],
  },
  'generic-template.csv': {
    profile: 'generic',
    warnings: 0,
    requisitions: [
      {
        key: 'GEN-2027-0001',
        title: 'Office supplies Q1 2027',
        description: 'Head office consumables',
        due: '2027-01-29T17:00:00.000Z',
        required: '2027-02-26T17:00:00.000Z',
        type: 'Public',
        category: 'Office supplies',
        location: 'Head office',
        lines: [
          [2, 'GEN-2027-0001-1', 'A4 copy paper 80 g/m²', '500 sheets per ream, FSC certified', 'ream', 200, 900],
          [3, 'GEN-2027-0001-2', 'Toner cartridge HP 59A', 'Original or certified compatible', 'pc', 12, 1020],
          [4, 'GEN-2027-0001-3', 'Monitor 27" 4K, height adjustable', 'USB-C 65 W power delivery', 'pc', 8, 2960],
        ],
      },
      {
        key: 'GEN-2027-0002',
        title: 'Forklift maintenance 2027',
        due: '2027-03-12T15:00:00.000Z',
        required: '2027-04-30T17:00:00.000Z',
        type: 'Private',
        category: 'Maintenance',
        location: 'Warehouse Lyon',
        lines: [
          [5, 'GEN-2027-0002-1', 'Forklift annual inspection', 'Linde H25, 3 units, on site', 'service', 1, 2400],
        ],
      },
      {
        key: 'GEN-2027-0003',
        title: 'Packaging materials',
        description: 'Quarterly call-off',
        due: '2027-02-15T17:00:00.000Z',
        required: '2027-03-15T17:00:00.000Z',
        type: 'Private',
        category: 'Packaging',
        location: 'Warehouse Lyon',
        lines: [
          [6, 'GEN-2027-0003-1', 'Stretch film 23 µm', '500 mm x 300 m, hand roll', 'roll', 240, 1176],
          [7, 'GEN-2027-0003-2', 'Pallet labels 100x150 mm', 'Thermal transfer', 'roll', 60, 744],
        ],
      },
    ],
  },
  'generic-template.xlsx': {
    profile: 'generic',
    warnings: 1,
    requisitions: [
      {
        key: 'GEN-2027-0101',
        title: 'Workshop tools',
        description: 'Replacement of worn tools',
        due: '2027-05-14T16:00:00.000Z',
        required: '2027-06-30T17:00:00.000Z',
        type: 'Private',
        category: 'Tools',
        location: 'Plant Graz',
        lines: [
          [4, 'GEN-2027-0101-1', 'Cordless drill 18 V', '2 batteries 5 Ah, case', 'pc', 6, 1794],
          [5, 'GEN-2027-0101-2', 'Torque wrench 40-200 Nm', '1/2" drive, calibrated', 'pc', 4, 758],
        ],
      },
      {
        key: 'GEN-2027-0102',
        title: 'Cleanroom consumables',
        // its Due Date column shows a time ("yyyy-mm-dd hh:mm"): the cell's 00:00 is meant, as its CSV would write it
        due: '2027-04-02T00:00:00.000Z',
        required: '2027-04-30T17:00:00.000Z',
        type: 'Public',
        category: 'Consumables',
        location: 'Plant Graz',
        lines: [
          [6, 'GEN-2027-0102-1', 'Cleanroom wipes 23x23 cm', 'Polyester, ISO class 5', 'box', 50, 2125],
          [7, 'GEN-2027-0102-2', 'Nitrile gloves, cleanroom grade', 'Size M, 100 per box', 'box', 80, 1520],
        ],
      },
      {
        key: 'GEN-2027-0103',
        title: 'Compressor service 2027',
        description: 'Two units, same site',
        due: '2027-08-20T12:00:00.000Z',
        required: '2027-09-15T17:00:00.000Z',
        type: 'Private',
        category: 'Maintenance',
        location: 'Plant Linz',
        lines: [[8, 'GEN-2027-0103-1', 'Air compressor service', 'Annual service incl. filters', 'service', 1, 1351]],
      },
    ],
  },
  'odoo_purchase.requisition.xlsx': {
    profile: 'odoo',
    warnings: 1,
    requisitions: [
      {
        key: 'PR/2027/00041',
        title: 'PR/2027/00041 MO/00812',
        description: 'Purchase representative: Mitchell Admin',
        due: '2027-03-05T16:00:00.000Z',
        required: '2027-03-31T15:00:00.000Z',
        type: 'Public',
        category: 'Furniture',
        location: 'YourCompany BE',
        lines: [
          [
            2,
            'ODOO-__export__.purchase_requisition_line_311_5f1c2a7b',
            '[FURN_7800] Desk Combination',
            'Desk + drawer, oak',
            'Units',
            10,
            4500,
          ],
          [
            3,
            'ODOO-__export__.purchase_requisition_line_312_9a0b1c2d',
            '[FURN_6666] Acoustic Bloc Screens',
            null,
            'Units',
            10,
            2950,
          ],
          [
            4,
            'ODOO-__export__.purchase_requisition_line_313_33aa44bb',
            '[E-COM11] Cabinet with Doors',
            'Lockable',
            'Units',
            4,
            563,
          ],
        ],
      },
      {
        key: 'PR/2027/00042',
        title: 'PR/2027/00042',
        description: 'Purchase representative: Marc Demo',
        due: '2027-02-19T11:00:00.000Z',
        required: '2027-03-15T16:00:00.000Z',
        type: 'Public',
        category: 'Office supplies',
        location: 'YourCompany BE',
        lines: [
          [
            5,
            'ODOO-__export__.purchase_requisition_line_320_0c0d0e0f',
            '[CONS_0001] Printer paper A4',
            null,
            'Box',
            40,
            876,
          ],
          [
            6,
            'ODOO-__export__.purchase_requisition_line_321_1a2b3c4d',
            '[CONS_0002] Whiteboard markers',
            'Assorted colours',
            'Pack',
            25,
            187,
          ],
        ],
      },
      {
        key: 'PR/2027/00043',
        title: 'PR/2027/00043 SO/00277',
        description: 'Purchase representative: Mitchell Admin',
        due: '2027-06-01T15:00:00.000Z',
        required: '2027-07-01T15:00:00.000Z',
        type: 'Public',
        category: 'IT services',
        location: 'YourCompany BE',
        lines: [
          [
            7,
            'ODOO-__export__.purchase_requisition_line_330_77fe88dc',
            '[SERV_0042] On-site network cabling',
            'Building B, 48 ports',
            'Units',
            1,
            6400,
          ],
        ],
      },
    ],
  },
  'Maintenance_requests_Q2-2027.xlsx': {
    profile: 'maintenance-requests',
    warnings: 2,
    requisitions: [
      {
        key: 'MR-2027-011',
        title: 'Maintenance request MR-2027-011',
        due: '2027-03-01T15:00:00.000Z',
        required: '2027-04-12T10:00:00.000Z',
        type: 'Private',
        category: 'Maintenance',
        location: 'Plant North',
        lines: [
          [5, 'MAINT-MR-2027-011-1', 'Conveyor belt 800 mm', 'EP 400/3, 42 m endless', 'pc', 1, 3980],
          [6, 'MAINT-MR-2027-011-2', 'Belt scraper', 'Polyurethane blade', 'pc', 2, 491],
          [7, 'MAINT-MR-2027-011-3', 'Idler roller 89 x 315', null, 'pc', 12, 467],
        ],
      },
      {
        key: 'MR-2027-012',
        title: 'Maintenance request MR-2027-012',
        due: '2027-02-22T11:00:00.000Z',
        required: '2027-03-29T10:00:00.000Z',
        type: 'Private',
        category: 'Maintenance',
        location: 'Plant South',
        lines: [[8, 'MAINT-MR-2027-012-4', 'Hydraulic hose assembly', '1/2", 2 m, 2 x DKOL', 'pc', 10, 274]],
      },
      {
        key: 'MR-2027-013',
        title: 'Maintenance request MR-2027-013',
        due: '2027-03-15T15:00:00.000Z',
        required: '2027-05-03T10:00:00.000Z',
        type: 'Private',
        category: 'Maintenance',
        location: 'Plant North',
        lines: [
          [9, 'MAINT-MR-2027-013-5', 'Gearbox oil CLP 220', '20 l canister', 'can', 6, 576],
          [10, 'MAINT-MR-2027-013-6', 'Grease cartridges', 'Lithium complex, 400 g', 'pc', 48, 305],
        ],
      },
    ],
  },
  'NetSuite_Requisitions_SavedSearch.csv': {
    profile: 'netsuite',
    warnings: 2,
    requisitions: [
      {
        key: 'PR-00123',
        title: 'PR-00123 Q1 monitors for new hires',
        description: 'Requested by Jordan Lee',
        due: '2026-12-06T23:00:00.000Z',
        required: '2027-01-15T18:00:00.000Z',
        type: 'Private',
        category: 'IT hardware',
        location: 'Austin HQ',
        lines: [
          [2, 'NS-911201', '27" 4K monitor, USB-C 65 W', 'MON-27-4K', 'Each', 15, 5835],
          [3, 'NS-911202', 'Dual monitor arm', 'ARM-DUAL', 'Each', 8, 596],
        ],
      },
      {
        key: 'PR-00124',
        title: 'PR-00124 Lab consumables',
        description: 'Requested by Priya Shah',
        due: '2026-12-06T23:00:00.000Z',
        required: '2027-02-03T18:00:00.000Z',
        type: 'Private',
        category: 'Lab supplies',
        location: 'Boston Lab',
        lines: [
          [4, 'NS-911230', 'Pipette tips 200 µl, racked', 'PIP-TIPS-200', 'Box', 40, 876],
          [5, 'NS-911231', 'Nitrile gloves, size M', 'GLV-NIT-M', 'Box', 25, 244],
          [6, 'NS-911232', 'Ethanol 70 % 5 l', 'ETH-70-5L', 'Each', 6, 230],
        ],
      },
      {
        key: 'PR-00125',
        title: 'PR-00125 Annual fire extinguisher inspection',
        description: 'Requested by Jordan Lee',
        due: '2026-12-06T23:00:00.000Z',
        required: '2027-03-01T18:00:00.000Z',
        type: 'Private',
        category: 'Facility services',
        location: 'Austin HQ',
        lines: [[7, 'NS-911250', 'On-site inspection of 42 extinguishers', 'SVC-FIRE-INSP', 'Each', 1, 1260]],
      },
    ],
  },
  'Sage100_Bedarfsanforderungen.csv': {
    profile: 'sage-100',
    warnings: 3,
    requisitions: [
      {
        key: 'BA-27-0042',
        title: 'Bedarfsanforderung BA-27-0042',
        description: 'Ersatzteile Linie 2',
        due: '2027-01-15T11:00:00.000Z',
        required: '2027-02-12T11:00:00.000Z',
        type: 'Private',
        category: 'Components',
        location: '4100 Instandhaltung',
        lines: [
          [2, 'SAGE-BA-27-0042-1', 'Kugelhahn DN 25 PN 40', '400-1120 Edelstahl 1.4408, Innengewinde', 'Stk', 12, 587],
          [3, 'SAGE-BA-27-0042-2', 'Kugelhahn DN 50 PN 40', '400-1125 Edelstahl 1.4408, Flansch', 'Stk', 4, 4850],
        ],
      },
      {
        key: 'BA-27-0043',
        title: 'Bedarfsanforderung BA-27-0043',
        description: 'Jahreswartung',
        due: '2027-01-22T11:00:00.000Z',
        required: '2027-02-26T11:00:00.000Z',
        type: 'Private',
        category: 'Maintenance',
        location: '4200 Haustechnik',
        lines: [[4, 'SAGE-BA-27-0043-1', 'Wartung Kältetrockner', 'inkl. Filterwechsel, vor Ort', 'Pausch.', 1, 2350]],
      },
      {
        key: 'BA-27-0044',
        title: 'Bedarfsanforderung BA-27-0044',
        due: '2027-01-29T11:00:00.000Z',
        required: '2027-03-05T11:00:00.000Z',
        type: 'Private',
        category: 'Electrical',
        location: '4100 Instandhaltung',
        lines: [
          [5, 'SAGE-BA-27-0044-1', 'Kabelbinder 4,8 x 300 mm schwarz', '610-0007 UV-beständig, VE 100', 'VE', 30, 224],
          [6, 'SAGE-BA-27-0044-2', 'Schrumpfschlauch-Sortiment', '610-0012', 'Set', 5, 100],
        ],
      },
    ],
  },
  'BANF_Liste_Einkauf.csv': {
    profile: 'banf-liste-de',
    warnings: 0,
    requisitions: [
      {
        key: '4500123',
        title: 'Requisition 4500123',
        description: 'Requested by Becker',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-01-18T11:00:00.000Z',
        type: 'Private',
        category: 'Fasteners',
        location: 'Kassel',
        lines: [
          [2, 'BANF-4500123-1', 'Sechskantschraube M12x60 8.8 verzinkt', '100-2001', 'ST', 500, 90],
          [3, 'BANF-4500123-2', 'Sechskantmutter M12 8 verzinkt', '100-2040', 'ST', 500, 30],
        ],
      },
      {
        key: '4500124',
        title: 'Requisition 4500124',
        description: 'Requested by Schmidt',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-01-25T11:00:00.000Z',
        type: 'Private',
        category: 'Services',
        location: 'Kassel',
        lines: [[4, 'BANF-4500124-1', 'Wartung Druckluftkompressor GA 37', null, 'LE', 1, 1450]],
      },
      {
        key: '4500125',
        title: 'Requisition 4500125',
        description: 'Requested by Yilmaz',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-02-01T11:00:00.000Z',
        type: 'Private',
        category: 'Safety',
        location: 'Baunatal',
        lines: [
          [5, 'BANF-4500125-1', 'Schutzhandschuh Nitril Gr. 9', '300-7710', 'PAA', 200, 470],
          [6, 'BANF-4500125-2', 'Schutzbrille klar EN 166', '300-7712', 'ST', 50, 345],
          [7, 'BANF-4500125-3', 'Gehörschutzstöpsel (200 Paar)', '300-7800', 'PAK', 4, 154],
        ],
      },
    ],
  },
  'D365_PurchReqLines_DEMF.xlsx': {
    profile: 'dynamics-365',
    warnings: 1,
    requisitions: [
      {
        key: 'DEMF-000118',
        title: 'DEMF-000118 Werkstattausstattung',
        description: 'Neue Werkstatt Halle 3',
        due: '2026-12-13T22:00:00.000Z',
        required: '2027-03-08T17:00:00.000Z',
        type: 'Private',
        category: 'Tools',
        location: '2',
        lines: [
          [2, 'D365-DEMF-000118-1', 'Werkbank 2000 mm', 'D0110 Mit Schubladenblock', 'ea', 2, 2370],
          [3, 'D365-DEMF-000118-2', 'Schraubstock 150 mm', 'D0114', 'ea', 2, 440],
        ],
      },
      {
        key: 'DEMF-000119',
        title: 'DEMF-000119 IT-Zubehör',
        description: 'Arbeitsplätze Vertrieb',
        due: '2026-12-13T22:00:00.000Z',
        required: '2027-02-22T17:00:00.000Z',
        type: 'Private',
        category: 'IT hardware',
        location: '1',
        lines: [[4, 'D365-DEMF-000119-1', 'Docking station USB-C', '90 W', 'ea', 25, 3975]],
      },
      {
        key: 'DEMF-000120',
        title: 'DEMF-000120 Verpackungsmaterial',
        description: 'Versand',
        due: '2026-12-13T22:00:00.000Z',
        required: '2027-02-01T17:00:00.000Z',
        type: 'Private',
        category: 'Packaging',
        location: '3',
        lines: [
          [5, 'D365-DEMF-000120-1', 'Stretchfolie 23 µm', 'P3300 500 mm x 300 m', 'roll', 60, 684],
          [6, 'D365-DEMF-000120-2', 'Kantenschutz 50x50 mm', 'P3310 Länge 1200 mm', 'ea', 400, 168],
        ],
      },
    ],
  },
  'Facilities_open_requisitions.xlsx': {
    profile: 'facilities-pandas',
    warnings: 4,
    requisitions: [
      {
        key: 'PR-7001',
        title: 'Requisition PR-7001',
        description: 'Requested by M. Chen',
        due: '2026-12-06T17:00:00.000Z',
        required: '2027-02-15T12:00:00.000Z',
        type: 'Private',
        category: 'Electrical',
        location: 'Building A',
        lines: [
          [4, 'FAC-PR-7001-1', 'LED panel 60x60 cm', '4000 K, 36 W, UGR<19', 'pc', 24, 1020],
          [5, 'FAC-PR-7001-2', 'Motion sensor, ceiling', '360°, 12 m range', 'pc', 12, 383],
        ],
      },
      {
        key: 'PR-7002',
        title: 'Requisition PR-7002',
        description: 'Requested by S. Patel',
        due: '2026-12-06T17:00:00.000Z',
        required: '2027-03-01T12:00:00.000Z',
        type: 'Private',
        category: 'Facility services',
        location: 'Building B',
        lines: [[6, 'FAC-PR-7002-1', 'Carpet tiles, grey', '50x50 cm, heavy contract', 'm2', 180, 3375]],
      },
      {
        key: 'PR-7003',
        title: 'Requisition PR-7003',
        description: 'Requested by M. Chen',
        due: '2026-12-06T17:00:00.000Z',
        required: '2027-01-31T12:00:00.000Z',
        type: 'Private',
        category: 'Facility services',
        location: 'Building A',
        lines: [
          [7, 'FAC-PR-7003-1', 'Window cleaning, all floors', 'Inside and outside, 2 visits', 'lot', 1, 2400],
          [8, 'FAC-PR-7003-2', 'High-level glazing access', 'Cherry picker, 1 day', 'day', 1, 650],
        ],
      },
      {
        key: 'PR-7004',
        title: 'Requisition PR-7004',
        description: 'Requested by L. Novak',
        due: '2026-12-06T17:00:00.000Z',
        required: '2027-02-28T12:00:00.000Z',
        type: 'Private',
        category: 'Safety',
        location: 'Building C',
        lines: [
          [9, 'FAC-PR-7004-1', 'Fire door closer EN 1154', 'Size 2-5, silver', 'pc', 6, 504],
          [10, 'FAC-PR-7004-2', 'Door hold-open magnet', '24 V DC, wall mount', 'pc', 6, 343],
          [11, 'FAC-PR-7004-3', 'Smoke detector for door release', 'EN 54-7', 'pc', 3, 288],
        ],
      },
    ],
  },
  'ME5A_BANF_Werk1000.csv': {
    profile: 'sap-me5a-de-warengruppe',
    warnings: 13,
    requisitions: [
      {
        key: '10020100',
        title: 'Requisition 10020100',
        description: 'Requested by KRÄMER',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-03-01T11:00:00.000Z',
        type: 'Private',
        category: 'Components',
        location: '1000',
        lines: [[5, 'SAP-10020100-10', 'Kugellager 6205-2RS C3', '400-220', 'ST', 1, 8]],
      },
      {
        key: '10020101',
        title: 'Requisition 10020101',
        description: 'Requested by ÖZTÜRK',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-04-06T10:00:00.000Z',
        type: 'Private',
        category: 'Electrical',
        location: '1000',
        lines: [
          [6, 'SAP-10020101-10', 'Leitung H07RN-F 3G2,5', '510-112', 'M', 100, 289],
          [7, 'SAP-10020101-20', 'Kugellager 6205-2RS C3', '400-220', 'ST', 15, 118],
        ],
      },
      {
        key: '10020102',
        title: 'Requisition 10020102',
        description: 'Requested by LEHMANN',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-05-11T10:00:00.000Z',
        type: 'Private',
        category: 'Safety',
        location: '1100',
        lines: [
          [8, 'SAP-10020102-10', 'Schutzhandschuh Schnittschutz Kl. C', '730-500', 'PAA', 23, 95],
          [9, 'SAP-10020102-20', 'Leitung H07RN-F 3G2,5', '510-112', 'M', 200, 578],
          [10, 'SAP-10020102-30', 'Kugellager 6205-2RS C3', '400-220', 'ST', 5, 39],
        ],
      },
      {
        key: '10020103',
        title: 'Requisition 10020103',
        description: 'Requested by NOWAK',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-06-16T10:00:00.000Z',
        type: 'Private',
        category: 'Components',
        location: '1000',
        lines: [[11, 'SAP-10020103-10', 'Zylinderrollenlager NU 210', '400-318', 'ST', 10, 462]],
      },
      {
        key: '10020104',
        title: 'Requisition 10020104',
        description: 'Requested by KRÄMER',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-03-21T11:00:00.000Z',
        type: 'Private',
        category: 'Components',
        location: '1000',
        lines: [
          [12, 'SAP-10020104-10', 'Hydrauliköl HLP 46', '620-007', 'L', 50, 106],
          [13, 'SAP-10020104-20', 'Zylinderrollenlager NU 210', '400-318', 'ST', 24, 1109],
        ],
      },
      {
        key: '10020105',
        title: 'Requisition 10020105',
        description: 'Requested by ÖZTÜRK',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-04-26T10:00:00.000Z',
        type: 'Private',
        category: 'Maintenance',
        location: '1100',
        lines: [
          [14, 'SAP-10020105-10', 'Wartung Schweißroboter Zelle 4', null, 'LE', 8, 19840],
          [15, 'SAP-10020105-20', 'Hydrauliköl HLP 46', '620-007', 'L', 150, 319],
          [16, 'SAP-10020105-30', 'Zylinderrollenlager NU 210', '400-318', 'ST', 14, 647],
        ],
      },
      {
        key: '10020106',
        title: 'Requisition 10020106',
        description: 'Requested by LEHMANN',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-05-04T10:00:00.000Z',
        type: 'Private',
        category: 'Electrical',
        location: '1000',
        lines: [[17, 'SAP-10020106-10', 'Schütz 3RT2026 24 V DC', '510-040', 'ST', 19, 1119]],
      },
      {
        key: '10020107',
        title: 'Requisition 10020107',
        description: 'Requested by NOWAK',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-06-09T10:00:00.000Z',
        type: 'Private',
        category: 'Components',
        location: '1000',
        lines: [
          [18, 'SAP-10020107-10', 'Hydraulikschlauch 2SN DN 12', '620-031', 'ST', 6, 191],
          [19, 'SAP-10020107-20', 'Schütz 3RT2026 24 V DC', '510-040', 'ST', 9, 530],
        ],
      },
      {
        key: '10020108',
        title: 'Requisition 10020108',
        description: 'Requested by KRÄMER',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-03-14T11:00:00.000Z',
        type: 'Private',
        category: 'Components',
        location: '1100',
        lines: [
          [20, 'SAP-10020108-10', 'Kugellager 6205-2RS C3', '400-220', 'ST', 17, 133],
          [21, 'SAP-10020108-20', 'Hydraulikschlauch 2SN DN 12', '620-031', 'ST', 20, 635],
          [22, 'SAP-10020108-30', 'Schütz 3RT2026 24 V DC', '510-040', 'ST', 23, 1355],
        ],
      },
      {
        key: '10020109',
        title: 'Requisition 10020109',
        description: 'Requested by ÖZTÜRK',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-04-19T10:00:00.000Z',
        type: 'Private',
        category: 'Electrical',
        location: '1000',
        lines: [[23, 'SAP-10020109-10', 'Leitung H07RN-F 3G2,5', '510-112', 'M', 100, 289]],
      },
    ],
  },
  'SAP_PR_List_text_tabs.txt': {
    profile: 'sap-alv-list-tabs',
    warnings: 5,
    requisitions: [
      {
        key: '10030101',
        title: 'PR 10030101 - Plant 1000',
        description: 'Purchasing group 001',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-03-15T11:00:00.000Z',
        type: 'Private',
        category: 'Components',
        location: '1000',
        lines: [
          [3, 'SAPL-10030101-10', 'Ball bearing 6205-2RS Ø25 mm', 'MAT-4711', 'PC', 40, 194],
          [4, 'SAPL-10030101-20', 'Ball bearing 6206-2RS Ø30 mm', 'MAT-4712', 'PC', 24, 146],
          [5, 'SAPL-10030101-30', 'Shaft seal 25×40×7 NBR', '100-310', 'PC', 1200, 462],
        ],
      },
      {
        key: '10030102',
        title: 'PR 10030102 - Plant 1000',
        description: 'Purchasing group 002',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-02-01T11:00:00.000Z',
        type: 'Private',
        category: 'Office supplies',
        location: '1000',
        lines: [
          [6, 'SAPL-10030102-10', 'Copy paper A4 80 g/m²', null, 'PAK', 200, 790],
          [7, 'SAPL-10030102-20', 'Toner cartridge HP 59A black', null, 'PC', 6, 539],
        ],
      },
      {
        key: '10030103',
        title: 'PR 10030103 - Plant 2000',
        description: 'Purchasing group 003',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-04-30T10:00:00.000Z',
        type: 'Private',
        category: 'Services',
        location: '2000',
        lines: [[8, 'SAPL-10030103-10', 'Annual inspection screw compressor SK 25', null, 'AU', 1, 1235]],
      },
      {
        key: '10030104',
        title: 'PR 10030104 - Plant 2000',
        description: 'Purchasing group 001',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-02-19T11:00:00.000Z',
        type: 'Private',
        category: 'Lubricants',
        location: '2000',
        lines: [
          [9, 'SAPL-10030104-10', 'Gear oil CLP 220, 20 l canister', 'MAT-5120', 'PC', 12, 1157],
          [10, 'SAPL-10030104-20', 'Multipurpose grease 400 g cartridge', 'MAT-5121', 'PC', 48, 276],
        ],
      },
      {
        key: '10030105',
        title: 'PR 10030105 - Plant 1000',
        description: 'Purchasing group 002',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-03-08T11:00:00.000Z',
        type: 'Private',
        category: 'Safety',
        location: '1000',
        lines: [
          [11, 'SAPL-10030105-10', 'Safety gloves EN 388, size 9', 'MAT-6001', 'PR', 2400, 3000],
          [12, 'SAPL-10030105-20', 'Safety glasses clear EN 166', 'MAT-6002', 'PC', 150, 1080],
        ],
      },
      {
        key: '10030106',
        title: 'PR 10030106 - Plant 1000',
        description: 'Purchasing group 001',
        due: '2026-12-06T16:00:00.000Z',
        required: '2027-03-22T11:00:00.000Z',
        type: 'Private',
        category: 'Fasteners',
        location: '1000',
        lines: [
          [13, 'SAPL-10030106-10', 'Hex bolt M12×60 DIN 933 8.8', 'MAT-7010', 'PC', 5000, 618],
          [14, 'SAPL-10030106-20', 'Hex nut M12 DIN 934 8', 'MAT-7011', 'PC', 5000, 155],
          [15, 'SAPL-10030106-30', 'Washer 13 mm DIN 125 A2', 'MAT-7012', 'PC', 10000, 95],
        ],
      },
    ],
  },
};
// the .xls (BIFF, XML 2003, HTML), .ods and SAP list samples: their expectations in a file of their own
Object.assign(EXPECTED, FORMAT_SAMPLES);

describe('shipped samples', async () => {
  const profiles = await loadProfiles(`${ROOT}mappings`);
  const files = readdirSync(`${ROOT}samples`).sort();

  it('has one expectation per sample file and covers every profile', () => {
    expect(files).toEqual(Object.keys(EXPECTED).sort());
    expect(new Set(Object.values(EXPECTED).map((e) => e.profile))).toEqual(new Set(profiles.map((p) => p.name)));
  });

  for (const [file, exp] of Object.entries(EXPECTED)) {
    it(`${file}: profile ${exp.profile}, exact requisitions, no rejected row`, async () => {
      const got: Requisition[] = [];
      const s = await ingestFile(
        `${ROOT}samples/${file}`,
        { profiles, limits: LIMITS, now: NOW },
        async (r) => void got.push(r),
      );
      expect(s.profile).toBe(exp.profile);
      expect(s.rejectedRows).toBe(0);
      expect(s.heldRequisitions).toBe(0);
      expect(s.warnings).toBe(exp.warnings);
      expect(got.map(compact)).toEqual(exp.requisitions);
      for (const r of got) {
        expect(r.sourceFile).toBe(file);
        expect(r.profile).toBe(exp.profile);
      }
      expect(s.requisitions).toBe(got.length);
      expect(s.lines).toBe(got.reduce((n, r) => n + r.lines.length, 0));
    });
  }

  it('external_ids are distinct across all samples (the demo ingests them into one account)', () => {
    const ids = Object.values(EXPECTED).flatMap((e) =>
      (e.requisitions as { lines: unknown[][] }[]).flatMap((r) => r.lines.map((l) => l[1])),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('samples with a due_date column have due dates far in the future (the demo runs them for real)', () => {
    for (const e of Object.values(EXPECTED)) {
      for (const r of e.requisitions as { due: string }[]) expect(r.due >= '2026-12-01').toBe(true);
    }
  });
});
