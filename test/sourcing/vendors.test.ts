/**
 * Reading the account's vendor directory as the real service's documentation shows it (vendor.rst,
 * vendor_category.rst): GET /v1/vendors, else the path of the list example, /v1/vendor/; every page; `categories` as
 * an array or a "0"-keyed object; a vendor that breaks the schema reported and left out; 404/405 on both paths is
 * "no directory", never an error. Against the sandbox in both dialects and hand-written answers over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidResponseError, TransientHttpError } from '../../src/core/errors.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { SANDBOX_CATEGORIES } from '../../src/sandbox/vendors.ts';
import { createSourcingClient } from '../../src/sourcing/client/http-client.ts';
import { categoryCounts } from '../../src/vendors/vendor-directory.ts';
import { json, startFakeService, type FakeService } from './fake-service.ts';

const answers = new Map<string, { status: number; body: unknown }>();
let svc: FakeService;
beforeAll(async () => {
  svc = await startFakeService((_req, url, res) => {
    const a = answers.get(`${url.pathname}${url.search}`);
    if (!a) return json(res, 404, { error: 'not found' });
    json(res, a.status, a.body);
  });
});
afterAll(() => svc.stop());

const fake = () =>
  createSourcingClient({ baseUrl: `${svc.url}/esourcing`, getToken: () => 'tok-vendors-1234', getRetries: 0 });

describe('the vendor directory', () => {
  it.each(['friendly', 'docs'] as const)(
    'sandbox, %s dialect: every vendor of every page, the categories of either shape',
    async (dialect) => {
      const sandbox = await startSandbox({ dialect, pageSize: 7 });
      const client = createSourcingClient({ baseUrl: sandbox.url, getToken: () => 'sandbox-token' });
      try {
        const got = await client.listVendors();
        expect(got.outcome).toBe('ok');
        if (got.outcome !== 'ok') return;
        // friendly: /v1/vendors in pages of 7; docs: the list example's /v1/vendor/ after a 404 on /v1/vendors
        expect([got.path, got.pages]).toEqual(dialect === 'friendly' ? ['/v1/vendors', 3] : ['/v1/vendor/', 1]);
        expect(got.vendors).toHaveLength(20);
        expect(new Set(got.vendors.map((v) => v.id)).size).toBe(20);
        expect(
          categoryCounts(got.vendors)
            .map((c) => c.category)
            .sort(),
        ).toEqual([...SANDBOX_CATEGORIES].sort());
        const acme = got.vendors.find((v) => v.name === 'Acme Industrial Supply')!;
        expect(acme).toMatchObject({ id: '1', contact: 'Alvin Acme', email: 'sales@acme-industrial-supply.example' });
        expect(sandbox.stats().calls.listVendors).toEqual(dialect === 'friendly' ? { 200: 3 } : { 200: 1, 404: 1 });
      } finally {
        await client.close();
        await sandbox.stop();
      }
    },
  );

  it('reads the documented example shapes: "0"-keyed categories and vendors, a bare array, numbers as ids and phones', async () => {
    answers.clear();
    answers.set('/esourcing/v1/vendor/', {
      status: 200,
      body: {
        vendors: {
          '0': {
            _id: 1,
            sup_name: 'Axxon Retails',
            sup_type: 'PT',
            contact_person: 'Alvin',
            sup_email: 'alvin@axxpha.com',
            sup_phone: 8785855645,
            categories: { '1': 'Komputer & Aksesoris', '0': 'Custom Printing', '2': 'Elektronik', '3': ' ' },
            comp_srl: '1',
          },
          '1': {
            _id: '2',
            sup_name: 'Braddford Technology',
            categories: ['Custom Printing', 'Elektronik', 'Elektronik'],
          },
          '2': { sup_name: 'No id at all', categories: [] },
        },
      },
    });
    const c = fake();
    const got = await c.listVendors();
    await c.close();
    expect(got.outcome === 'ok' && got.path).toBe('/v1/vendor/');
    if (got.outcome !== 'ok') return;
    expect(got.vendors).toEqual([
      {
        id: '1',
        name: 'Axxon Retails',
        type: 'PT',
        contact: 'Alvin',
        email: 'alvin@axxpha.com',
        phone: '8785855645',
        categories: ['Custom Printing', 'Komputer & Aksesoris', 'Elektronik'],
      },
      { id: '2', name: 'Braddford Technology', categories: ['Custom Printing', 'Elektronik'] },
    ]);
    expect(got.invalid).toEqual([{ page: 1, index: 2, reason: expect.stringContaining('field _id') }]);

    answers.clear();
    answers.set('/esourcing/v1/vendors', {
      status: 200,
      body: [{ _id: 7, sup_name: 'Bare', categories: 'Elektronik' }],
    });
    const c2 = fake();
    const bare = await c2.listVendors();
    await c2.close();
    expect(bare.outcome === 'ok' && bare.vendors).toEqual([{ id: '7', name: 'Bare', categories: ['Elektronik'] }]);
  });

  it('no directory (404 or 405 on both paths) is "absent"; another failure is an error', async () => {
    answers.clear();
    answers.set('/esourcing/v1/vendors', { status: 405, body: { error: 'method not allowed' } });
    const c = fake();
    expect(await c.listVendors()).toEqual({
      outcome: 'absent',
      tried: [
        { path: '/v1/vendors', status: 405 },
        { path: '/v1/vendor/', status: 404 },
      ],
    });
    answers.set('/esourcing/v1/vendors', { status: 503, body: { error: 'down' } });
    await expect(c.listVendors()).rejects.toBeInstanceOf(TransientHttpError);
    answers.set('/esourcing/v1/vendors', { status: 200, body: { suppliers: [] } });
    await expect(c.listVendors()).rejects.toBeInstanceOf(InvalidResponseError);
    await c.close();
  });
});
