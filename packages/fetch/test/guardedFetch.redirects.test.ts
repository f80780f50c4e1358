import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from '../src/index.js';
import { PNG_BYTES, PUBLIC_ADDRESS, redirect, routeTo, send, startLocalServer, rejection } from './localServer.js';
import type { LocalServer } from './localServer.js';

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer({
    '/image.png': send(PNG_BYTES, { 'content-type': 'image/png' }),
    '/hop1': redirect('/hop2', 301),
    '/hop2': redirect('http://cdn.example.com/hop3', 307),
    '/hop3': redirect('/image.png', 308),
    '/loop': redirect('/loop'),
    '/to-loopback': (_request, response) => {
      response.writeHead(302, { location: `http://127.0.0.1:${server.port}/image.png` }).end();
    },
    '/to-internal': redirect('http://internal.example.com/image.png'),
    '/to-ftp': redirect('ftp://files.example.com/image.png'),
    '/to-other-origin': redirect('http://other.example.com/echo'),
    '/echo': (request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' }).end(JSON.stringify(request.headers));
    },
  });
});

afterAll(async () => {
  await server.close();
});

describe('guardedFetch redirects', () => {
  it('follows a chain within the limit and reports every hop', async () => {
    const route = routeTo(server);
    const resource = await guardedFetch('http://images.example.com/hop1', route);
    expect(resource.redirects).toEqual([
      'http://images.example.com/hop2',
      'http://cdn.example.com/hop3',
      'http://cdn.example.com/image.png',
    ]);
    expect(resource.url).toBe('http://cdn.example.com/image.png');
    expect(resource.contentType).toBe('image/png');
  });

  it('resolves and checks the host of every hop', async () => {
    const route = routeTo(server);
    await guardedFetch('http://images.example.com/hop1', route);
    expect(route.resolved).toEqual(['images.example.com', 'images.example.com', 'cdn.example.com', 'cdn.example.com']);
    expect(route.dialed).toEqual([PUBLIC_ADDRESS, PUBLIC_ADDRESS, PUBLIC_ADDRESS, PUBLIC_ADDRESS]);
  });

  it('rejects more redirects than maxRedirects', async () => {
    const error = await rejection(guardedFetch('http://images.example.com/loop', { ...routeTo(server), maxRedirects: 3 }));
    expect(error).toMatchObject({ code: 'TOO_MANY_REDIRECTS', message: 'More than 3 redirects' });
  });

  it('refuses any redirect when maxRedirects is 0', async () => {
    const error = await rejection(guardedFetch('http://images.example.com/hop3', { ...routeTo(server), maxRedirects: 0 }));
    expect(error.code).toBe('TOO_MANY_REDIRECTS');
  });

  it('rejects a redirect to a loopback IP literal without following it', async () => {
    const before = server.requests.length;
    const error = await rejection(guardedFetch('http://images.example.com/to-loopback', routeTo(server)));
    expect(error.code).toBe('FORBIDDEN_ADDRESS');
    expect(error.message).toContain(`Redirect to http://127.0.0.1:${server.port}/image.png rejected`);
    expect(server.requests.slice(before)).toEqual(['/to-loopback']);
  });

  it('rejects a redirect to a host that resolves to a private address', async () => {
    const before = server.requests.length;
    const route = routeTo(server);
    const error = await rejection(
      guardedFetch('http://images.example.com/to-internal', {
        ...route,
        resolve: async (hostname) =>
          hostname === 'internal.example.com' ? [{ address: '10.0.0.1', family: 4 }] : route.resolve(hostname),
      }),
    );
    expect(error.code).toBe('FORBIDDEN_ADDRESS');
    expect(error.address).toBe('10.0.0.1');
    expect(server.requests.slice(before)).toEqual(['/to-internal']);
  });

  it('rejects a redirect to a scheme other than http or https', async () => {
    const error = await rejection(guardedFetch('http://images.example.com/to-ftp', routeTo(server)));
    expect(error.code).toBe('INVALID_REDIRECT');
    expect(error.message).toContain('URL scheme "ftp" is not allowed');
  });

  it('drops credentials headers on a redirect to another origin', async () => {
    const resource = await guardedFetch('http://images.example.com/to-other-origin', {
      ...routeTo(server),
      headers: { authorization: 'Bearer secret', 'x-trace': 'abc' },
    });
    const headers = JSON.parse(resource.bytes.toString()) as Record<string, string>;
    expect(headers.authorization).toBeUndefined();
    expect(headers['x-trace']).toBe('abc');
    expect(headers.host).toBe('other.example.com');
  });
});
