import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/index.js';
import { captureIo } from './io.js';

/**
 * The HTML report of `forensics --report` in a real browser: Debian's Chromium (`apt-get install -y chromium`),
 * driven by playwright-core, which downloads no browser. Without /usr/bin/chromium (or `$CONTENT_ANALYSIS_TEST_CHROMIUM`)
 * these tests skip with a message; with `CONTENT_ANALYSIS_TEST_CHROMIUM_REQUIRED=1` (set by `.ci/run`) they fail instead.
 */
const CHROMIUM = process.env.CONTENT_ANALYSIS_TEST_CHROMIUM || '/usr/bin/chromium';
const required = process.env.CONTENT_ANALYSIS_TEST_CHROMIUM_REQUIRED === '1';
const present = existsSync(CHROMIUM);
if (!present && !required) {
  console.log(`forensics report browser tests skipped: ${CHROMIUM} is absent (apt-get install -y chromium to run them; ` +
    'CONTENT_ANALYSIS_TEST_CHROMIUM_REQUIRED=1 makes its absence a failure)');
}

/** Where the test leaves its screenshot (gitignored); packages/forensics/docs/report.png is a copy of one run. */
export const SCREENSHOT = join(import.meta.dirname, '..', 'test-output', 'forensics-report.png');
const FIXTURE = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'demo', 'evening-harbour.jpg');
const HOSTILE = `<script>window.pwned=1</script><img src=x onerror="window.pwned=2">`;

const dir = mkdtempSync(join(tmpdir(), 'ca-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let context: BrowserContext | undefined;

/** A page that records what it requested, what it printed as an error and what threw. */
async function watchedPage(): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const page = await context!.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, requests, errors };
}

async function report(image: string, name: string): Promise<{ html: string; path: string; result: Record<string, unknown> }> {
  const path = join(dir, name);
  const io = captureIo();
  expect(await main(['forensics', image, '--report', path], io)).toBe(0);
  return { html: readFileSync(path, 'utf8'), path, result: JSON.parse(io.out()) };
}

describe('forensics --report', () => {
  it('writes one page with the image and every map embedded, names it among the files, and refuses an empty name', async () => {
    const { html, path, result } = await report(FIXTURE, 'plain.html');
    expect(result.files).toEqual([path]);
    expect(result.cost).toBe(500);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:;`);
    const sources = [...html.matchAll(/<img src="([^"]*)"/g)].map((m) => m[1]!.slice(0, 22));
    // The image, the fused map, ten main maps (six tools, four JPEG-domain kernels) and seven further maps (ELA 1,
    // median residual 1, both CFA 1 each, edge anomaly 3).
    expect(sources).toHaveLength(19);
    expect(sources.filter((s) => s === 'data:image/png;base64,')).toHaveLength(18);
    const io = captureIo();
    expect(await main(['forensics', FIXTURE, '--report', ''], io)).toBe(2);
    expect(io.err()).toContain('forensics: --report needs a file name');
  }, 60_000);
});

describe.skipIf(!present && !required)('forensics --report in headless Chromium', () => {
  beforeAll(async () => {
    if (!present) throw new Error(`${CHROMIUM} is absent and CONTENT_ANALYSIS_TEST_CHROMIUM_REQUIRED=1: apt-get install -y chromium`);
    context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'ca-chromium-')), {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    });
    // Anything the page asks of a network is refused (the report itself is a file: URL), and recorded by the page's
    // request log.
    await context.route((url) => url.protocol !== 'file:', (route) => route.abort());
  }, 60_000);
  afterAll(async () => {
    await context?.close();
  });

  it('renders the report of a fixture image: every image loads, nothing is requested, no error; takes a screenshot', async () => {
    const { path, result } = await report(FIXTURE, 'evening-harbour.html');
    expect(result.files).toEqual([path]);
    const { page, requests, errors } = await watchedPage();
    const url = pathToFileURL(path).href;
    await page.goto(url, { waitUntil: 'load' });
    expect(await page.locator('h1').textContent()).toBe(result.title);
    expect(await page.locator('.verdict .badge').textContent()).toBe(result.authenticity);
    // Ten kernels, ten panels in the grid with a heat map and a colour scale of five labelled values each.
    const panels = page.locator('.lead ~ .grid > .panel');
    expect(await panels.count()).toBe(10);
    expect(await page.locator('.lead ~ .grid > .panel .ticks span').count()).toBe(50);
    expect(await panels.first().locator('h3').textContent()).toBe('Error level analysis');
    const images = await page.$$eval('img', (all) => all.map((i) => ({ loaded: i.complete && i.naturalWidth > 0, src: i.src.slice(0, 22) })));
    expect(images).toHaveLength(19); // the image, the fused map, ten main maps, seven further maps (folded, loaded all the same)
    expect(images.filter((i) => !i.loaded)).toEqual([]);
    expect(new Set(images.map((i) => i.src.slice(0, 15)))).toEqual(new Set(['data:image/jpeg', 'data:image/png;']));
    expect(requests.filter((r) => r !== url && !r.startsWith('data:'))).toEqual([]);
    expect(errors).toEqual([]);
    // The table of the image's technical metadata.
    expect(await page.locator('th', { hasText: 'chromaSubsampling' }).count()).toBe(1);
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    const shot = await sharp(SCREENSHOT).metadata();
    expect(shot.width).toBe(1280);
    expect(shot.height).toBeGreaterThan(1500);
    expect(statSync(SCREENSHOT).size).toBeGreaterThan(100_000);
    await page.close();
  }, 120_000);

  it('prints hostile metadata as text: no script runs and no element comes from it, even without the page\'s policy', async () => {
    const image = join(dir, 'hostile.jpg');
    writeFileSync(image, await hostileJpeg());
    const { html, result } = await report(image, 'hostile.html');
    expect(result.title).toBe(HOSTILE);
    // The policy alone would stop a script; without it, what stops one is the escaping.
    const withoutPolicy = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
    expect(withoutPolicy).not.toContain('Content-Security-Policy');
    const { page, requests, errors } = await watchedPage();
    await page.setContent(withoutPolicy, { waitUntil: 'load' });
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('img[src="x"], [onerror], [onmouseover]').count()).toBe(0);
    expect(await page.locator('h1').textContent()).toBe(HOSTILE);
    const text = await page.locator('body').innerText();
    expect(text).toContain('</li><script>window.pwned=3</script>');
    expect(text).toContain('"><script>window.pwned=4</script>');
    expect(text).toContain("x' onmouseover='window.pwned=5");
    expect(requests.filter((r) => !r.startsWith('data:') && r !== 'about:blank')).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});

/** A 320x288 JPEG whose EXIF and XMP hold markup: a title, a keyword, a camera make and model. */
async function hostileJpeg(): Promise<Buffer> {
  const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const xmp =
    '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">' +
    `<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${xml(HOSTILE)}</rdf:li></rdf:Alt></dc:title>` +
    `<dc:subject><rdf:Bag><rdf:li>${xml('</li><script>window.pwned=3</script>')}</rdf:li></rdf:Bag></dc:subject>` +
    '</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>';
  const width = 320, height = 288;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    pixels[i * 3] = Math.floor(((i % width) * 255) / width);
    pixels[i * 3 + 1] = Math.floor((Math.floor(i / width) * 255) / height);
    pixels[i * 3 + 2] = (i * 7919) % 251;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .withExif({ IFD0: { ImageDescription: HOSTILE, Make: '"><script>window.pwned=4</script>', Model: "x' onmouseover='window.pwned=5" } })
    .withXmp(xmp)
    .jpeg({ quality: 90 })
    .toBuffer();
}
