import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_USER_AGENT, guardedFetch } from '../src/index.js';
import { HTML_BYTES, PNG_BYTES, PUBLIC_ADDRESS, deflateSync, gzipSync, routeTo, send, startLocalServer, rejection } from './localServer.js';
import type { LocalServer } from './localServer.js';

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer({
    '/image.png': send(PNG_BYTES, { 'content-type': 'image/png' }),
    '/unlabelled.png': send(PNG_BYTES, { 'content-type': 'application/octet-stream' }),
    '/gzipped.png': send(gzipSync(PNG_BYTES), { 'content-type': 'image/png', 'content-encoding': 'gzip' }),
    '/fake.png': send(HTML_BYTES, { 'content-type': 'image/png' }),
    '/page.html': send(HTML_BYTES, { 'content-type': 'text/html; charset=utf-8' }),
    '/echo': (request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' }).end(JSON.stringify(request.headers));
    },
    '/brotli.png': send(brotliCompressSync(PNG_BYTES), { 'content-type': 'image/png', 'content-encoding': 'br' }),
    '/deflated.png': send(deflateSync(PNG_BYTES), { 'content-type': 'image/png', 'content-encoding': 'deflate' }),
    '/compress.png': send(PNG_BYTES, { 'content-type': 'image/png', 'content-encoding': 'compress' }),
    '/random.jpg': send(Buffer.from([0x00, 0x01, 0x02, 0x03]), { 'content-type': 'image/jpeg' }),
    '/empty.png': send(Buffer.alloc(0), { 'content-type': 'image/png' }),
    '/notes': send('A page without a leading tag.', { 'content-type': 'text/html' }),
    '/hold': () => {},
  });
});

afterAll(async () => {
  await server.close();
});

describe('guardedFetch', () => {
  it('fetches a PNG through the resolved and dialed address', async () => {
    const route = routeTo(server);
    const resource = await guardedFetch('http://images.example.com/image.png', route);
    expect(resource).toMatchObject({
      url: 'http://images.example.com/image.png',
      status: 200,
      contentType: 'image/png',
      declaredContentType: 'image/png',
      redirects: [],
    });
    expect(resource.bytes.equals(PNG_BYTES)).toBe(true);
    expect(resource.headers['content-type']).toBe('image/png');
  });

  it('connects to exactly the checked address', async () => {
    const route = routeTo(server);
    await guardedFetch('http://images.example.com/image.png', route);
    expect(route.resolved).toEqual(['images.example.com']);
    expect(route.dialed).toEqual([PUBLIC_ADDRESS]);
  });

  it('does not resolve an IP literal host', async () => {
    const route = routeTo(server);
    await guardedFetch(`http://${PUBLIC_ADDRESS}/image.png`, route);
    expect(route.resolved).toEqual([]);
    expect(route.dialed).toEqual([PUBLIC_ADDRESS]);
  });

  it('sends the URL host in the Host header and the default User-Agent', async () => {
    const resource = await guardedFetch('http://images.example.com:8080/echo', routeTo(server));
    const headers = JSON.parse(resource.bytes.toString()) as Record<string, string>;
    expect(headers.host).toBe('images.example.com:8080');
    expect(headers['user-agent']).toBe(DEFAULT_USER_AGENT);
  });

  it('rejects a host that resolves to a private address without connecting', async () => {
    const before = server.requests.length;
    const route = routeTo(server, ['10.0.0.1']);
    const error = await rejection(guardedFetch('http://internal.example.com/image.png', route));
    expect(error.code).toBe('FORBIDDEN_ADDRESS');
    expect(error.message).toBe('Host internal.example.com resolves to a private address; only public addresses are allowed');
    expect(error.address).toBe('10.0.0.1');
    expect(route.dialed).toEqual([]);
    expect(server.requests.length).toBe(before);
  });

  it('rejects a host with one public and one private address', async () => {
    const route = routeTo(server, [PUBLIC_ADDRESS, '127.0.0.1']);
    const error = await rejection(guardedFetch('http://mixed.example.com/image.png', route));
    expect(error.code).toBe('FORBIDDEN_ADDRESS');
    expect(route.dialed).toEqual([]);
  });

  it('rejects a host that resolves to an IPv4-mapped loopback address', async () => {
    const route = routeTo(server, ['::ffff:127.0.0.1']);
    const error = await rejection(guardedFetch('http://mapped.example.com/image.png', route));
    expect(error.code).toBe('FORBIDDEN_ADDRESS');
  });

  it('tries the next checked address when a connection is refused', async () => {
    const closed = await startLocalServer({});
    const closedPort = closed.port;
    await closed.close();
    const dialed: string[] = [];
    const resource = await guardedFetch('http://images.example.com/image.png', {
      resolve: async () => [
        { address: '2606:4700::1', family: 6 },
        { address: PUBLIC_ADDRESS, family: 4 },
      ],
      dial: (address) => {
        dialed.push(address);
        return { host: '127.0.0.1', port: address === PUBLIC_ADDRESS ? server.port : closedPort };
      },
    });
    expect(resource.status).toBe(200);
    expect(dialed).toEqual(['2606:4700::1', PUBLIC_ADDRESS]);
  });

  it('reports a refused connection as a network error', async () => {
    const closed = await startLocalServer({});
    await closed.close();
    const error = await rejection(guardedFetch('http://images.example.com/image.png', routeTo(closed)));
    expect(error.code).toBe('NETWORK');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('reports a name that does not resolve as a network error', async () => {
    const error = await rejection(
      guardedFetch('http://missing.example.com/', {
        resolve: () => Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' })),
      }),
    );
    expect(error).toMatchObject({ code: 'NETWORK', message: 'Could not resolve host missing.example.com (ENOTFOUND)' });
  });

  it('rejects a 404 with its status', async () => {
    const error = await rejection(guardedFetch('http://images.example.com/missing.png', routeTo(server)));
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 404, message: 'The server answered 404 Not Found' });
  });

  it('rejects HTML bytes declared as image/png', async () => {
    const error = await rejection(guardedFetch('http://images.example.com/fake.png', routeTo(server)));
    expect(error).toMatchObject({
      code: 'CONTENT_TYPE_MISMATCH',
      message: 'The server declared image/png but sent HTML',
    });
  });

  it('rejects content that is not an accepted kind', async () => {
    const error = await rejection(
      guardedFetch('http://images.example.com/page.html', { ...routeTo(server), accept: ['image/jpeg', 'image/png'] }),
    );
    expect(error).toMatchObject({ code: 'CONTENT_TYPE_MISMATCH', message: 'The content is text/html; expected image/jpeg, image/png' });
  });

  it('lets the bytes decide when the declared type is generic', async () => {
    const resource = await guardedFetch('http://images.example.com/unlabelled.png', {
      ...routeTo(server),
      accept: ['image/png'],
    });
    expect(resource.contentType).toBe('image/png');
  });

  it('decodes a gzip content encoding', async () => {
    const resource = await guardedFetch('http://images.example.com/gzipped.png', routeTo(server));
    expect(resource.bytes.equals(PNG_BYTES)).toBe(true);
  });

  it('decodes brotli and deflate content encodings', async () => {
    for (const path of ['/brotli.png', '/deflated.png']) {
      const resource = await guardedFetch(`http://images.example.com${path}`, routeTo(server));
      expect(resource.bytes.equals(PNG_BYTES), path).toBe(true);
    }
  });

  it('rejects an unsupported content encoding', async () => {
    const error = await rejection(guardedFetch('http://images.example.com/compress.png', routeTo(server)));
    expect(error).toMatchObject({ code: 'NETWORK', message: 'Unsupported content encoding "compress"' });
  });

  it('rejects unrecognised bytes declared as image/jpeg', async () => {
    const error = await rejection(guardedFetch('http://images.example.com/random.jpg', routeTo(server)));
    expect(error).toMatchObject({ code: 'CONTENT_TYPE_MISMATCH', message: 'The server declared image/jpeg but the bytes do not match it' });
  });

  it('rejects an empty body declared as image/png', async () => {
    const error = await rejection(guardedFetch('http://images.example.com/empty.png', routeTo(server)));
    expect(error).toMatchObject({ code: 'CONTENT_TYPE_MISMATCH', message: 'The server declared image/png but the body is empty' });
  });

  it('takes text declared as text/html for HTML', async () => {
    const resource = await guardedFetch('http://pages.example.com/notes', { ...routeTo(server), accept: ['text/html'] });
    expect(resource.contentType).toBe('text/html');
  });

  it('rejects with the caller signal reason when aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    setTimeout(() => controller.abort(reason), 50);
    await expect(
      guardedFetch('http://images.example.com/hold', { ...routeTo(server), signal: controller.signal }),
    ).rejects.toBe(reason);
  });

  it('checks options up front', async () => {
    await expect(guardedFetch('http://images.example.com/', { maxBytes: -1 })).rejects.toThrow(
      'Expected positive integer for maxBytes but received -1 of type number',
    );
    await expect(guardedFetch('http://images.example.com/', { accept: ['image/jpg'] })).rejects.toThrow(RangeError);
    await expect(guardedFetch('http://images.example.com/', { headers: { Host: 'internal' } })).rejects.toThrow(
      'Header Host is set by the fetcher and cannot be given',
    );
  });

  it('rejects an invalid URL before any resolution', async () => {
    const route = routeTo(server);
    const error = await rejection(guardedFetch('http://user:pw@images.example.com/', route));
    expect(error.code).toBe('INVALID_URL');
    expect(route.resolved).toEqual([]);
  });
});

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasOpenssl)('guardedFetch over https', () => {
  it('validates the certificate against the URL host name, not the dialed address', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'fetch-tls-'));
    try {
      // A throwaway self-signed certificate: untrusted, so the handshake must fail.
      execFileSync('openssl', [
        'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
        '-keyout', join(directory, 'key.pem'), '-out', join(directory, 'cert.pem'), '-days', '1',
        '-subj', '/CN=img.example.test', '-addext', 'subjectAltName=DNS:img.example.test',
      ], { stdio: 'ignore' });
      const sni: string[] = [];
      let requests = 0;
      const tls = createServer(
        {
          key: readFileSync(join(directory, 'key.pem')),
          cert: readFileSync(join(directory, 'cert.pem')),
          SNICallback: (name, callback) => {
            sni.push(name);
            callback(null, undefined);
          },
        },
        (_request, response) => {
          requests += 1;
          response.end();
        },
      );
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
      const port = (tls.address() as AddressInfo).port;
      try {
        const error = await rejection(
          guardedFetch('https://img.example.test/a.png', {
            resolve: async () => [{ address: PUBLIC_ADDRESS, family: 4 }],
            dial: () => ({ host: '127.0.0.1', port }),
          }),
        );
        expect(error.code).toBe('NETWORK');
        expect(error.message).toContain('SELF_SIGNED');
        expect(sni).toEqual(['img.example.test']);
        expect(requests).toBe(0);
      } finally {
        await new Promise<void>((resolve) => tls.close(() => resolve()));
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
