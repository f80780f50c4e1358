import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeText, fingerprintsOf, IndexClosedError, IndexVersionError, InvalidDocumentError, SourceIndex, StemFrequencies } from '../src/index.js';
import { BEES, PRESS, VOLCANO } from './helpers.js';
import { describeSourceIndexContract } from './sourceIndexContract.js';

const dir = mkdtempSync(join(tmpdir(), 'plagiarism-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const query = (text: string) => fingerprintsOf(analyzeText(text, 'en', false));
let files = 0;

describeSourceIndexContract('SourceIndex contract (memory)', async () => SourceIndex.open());
describeSourceIndexContract('SourceIndex contract (SQLite)', async () => SourceIndex.open({ path: join(dir, `contract-${files++}.db`) }));

describe('SourceIndex', () => {
  it('finds the document that shares fingerprints, best first', () => {
    const index = SourceIndex.open();
    index.addMany([{ url: 'https://a.example/press', text: PRESS }, { url: 'https://b.example/volcano', text: VOLCANO }, { url: 'https://c.example/bees', text: BEES }]);
    expect(index.size).toBe(3);
    const found = index.candidates(query('Worker bees gather nectar and pollen from flowers and turn the nectar into honey.'));
    expect(found[0]?.id).toBe(3);
    expect(index.getById(found[0]!.id)?.document.url).toBe('https://c.example/bees');
  });

  it('replaces a document added again under the same url and removes on request', () => {
    const index = SourceIndex.open();
    index.add({ url: 'https://a.example/x', text: PRESS });
    index.add({ url: 'https://a.example/x', text: VOLCANO });
    expect(index.size).toBe(1);
    expect(index.candidates(query(PRESS))).toEqual([]);
    expect(index.candidates(query(VOLCANO)).length).toBe(1);
    expect(index.remove('https://a.example/x')).toBe(true);
    expect(index.remove('https://a.example/x')).toBe(false);
    expect(index.candidates(query(VOLCANO))).toEqual([]);
  });

  it('persists to SQLite and reloads after a restart', () => {
    const path = join(dir, 'persist.db');
    const first = SourceIndex.open({ path });
    first.add({ url: 'https://a.example/press', title: 'Press', author: 'A. Writer', publishedDate: 1_600_000_000_000, text: PRESS });
    first.add({ url: 'https://b.example/bees', text: BEES });
    first.remove('https://b.example/bees');
    first.close();
    const second = SourceIndex.open({ path });
    expect(second.size).toBe(1);
    expect(second.get('https://a.example/press')).toMatchObject({ title: 'Press', author: 'A. Writer', publishedDate: 1_600_000_000_000, text: PRESS });
    const found = second.candidates(query(PRESS));
    expect(found.length).toBe(1);
    expect(second.getById(found[0]!.id)?.document.url).toBe('https://a.example/press');
    second.close();
    expect(() => second.size).toThrow(IndexClosedError);
  });

  it('re-indexes when the fingerprint scheme changes, or refuses when asked to', () => {
    const path = join(dir, 'scheme.db');
    SourceIndex.open({ path }).add({ url: 'u', text: PRESS });
    expect(() => SourceIndex.open({ path, fingerprint: { k: 2 }, reindexOnSchemeChange: false })).toThrow(IndexVersionError);
    const reopened = SourceIndex.open({ path, fingerprint: { k: 2 } });
    expect(reopened.candidates(fingerprintsOf(analyzeText(PRESS, 'en', false), { k: 2, window: 4 })).length).toBe(1);
    reopened.close();
  });

  it('rejects malformed documents naming the field', () => {
    const index = SourceIndex.open();
    expect(() => index.add({ url: '', text: 'x' })).toThrow(InvalidDocumentError);
    expect(() => index.add({ url: 'u', text: 3 as unknown as string })).toThrow(/document\.text/);
  });
});

describe('SourceIndex.stemFrequencies', () => {
  it('counts the documents of each content-word stem as documents come, change and go', () => {
    const index = SourceIndex.open();
    index.addMany([{ url: 'https://a.example/1', text: 'Volcanoes erupt. Volcanoes sleep.' }, { url: 'https://a.example/2', text: 'Bees sleep in the hive.' }]);
    const stems = index.stemFrequencies();
    expect(stems.documents).toBe(2);
    expect(stems.count('volcano')).toBe(1);
    expect(stems.count('sleep')).toBe(2);
    expect(stems.count('the')).toBe(0);
    index.add({ url: 'https://a.example/1', text: 'Rivers sleep.' });
    expect([stems.documents, stems.count('volcano'), stems.count('river'), stems.count('sleep')]).toEqual([2, 0, 1, 2]);
    index.remove('https://a.example/2');
    expect([stems.documents, stems.count('bee'), stems.count('sleep')]).toEqual([1, 0, 1]);
  });

  it('crosses threads as a snapshot that reads the same counts', () => {
    const index = SourceIndex.open();
    index.addMany([{ url: 'https://a.example/1', text: 'Volcanoes erupt. Volcanoes sleep.' }, { url: 'https://a.example/2', text: 'Bees sleep in the hive.' }]);
    const snapshot = structuredClone(index.stemFrequencies().snapshot());
    const copy = StemFrequencies.fromSnapshot(snapshot);
    expect([copy.documents, copy.count('volcano'), copy.count('sleep'), copy.count('bee'), copy.count('river')]).toEqual([2, 1, 2, 1, 0]);
    index.add({ url: 'https://a.example/3', text: 'Rivers sleep.' });
    expect(copy.count('river')).toBe(0); // a copy: later documents do not reach it
    expect(() => StemFrequencies.fromSnapshot({ keys: new Uint32Array(3), counts: new Int32Array(3), documents: 0 })).toThrow(RangeError);
  });

  it('counts the stored documents of a file on first use', () => {
    const path = join(dir, 'stems.sqlite');
    const first = SourceIndex.open({ path });
    first.addMany([{ url: 'https://a.example/1', text: 'Volcanoes erupt.' }, { url: 'https://a.example/2', text: 'Volcanoes sleep.' }]);
    first.close();
    const again = SourceIndex.open({ path });
    expect(again.stemFrequencies().count('volcano')).toBe(2);
    again.close();
  });
});
