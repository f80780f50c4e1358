import { describe, expect, it } from 'vitest';
import { FetchError, checkPublicUrl, validatePublicUrl } from '../src/index.js';

function rejection(value: unknown): FetchError {
  try {
    validatePublicUrl(value);
  } catch (error) {
    if (error instanceof FetchError) return error;
    throw error;
  }
  throw new Error(`accepted ${String(value)}`);
}

describe('validatePublicUrl', () => {
  it('returns the parsed URL of a public http or https URL', () => {
    expect(validatePublicUrl('https://example.com/a.png?x=1').href).toBe('https://example.com/a.png?x=1');
    expect(validatePublicUrl('http://93.184.216.34/').hostname).toBe('93.184.216.34');
    expect(validatePublicUrl('http://[2606:4700::1]:8080/').port).toBe('8080');
  });

  it.each([
    ['an empty string', '', 'URL is empty'],
    ['blank text', '   ', 'URL is empty'],
    ['a number', 42, 'URL must be a string but received a value of type number'],
    ['null', null, 'URL must be a string but received null'],
    ['an object', { href: 'https://example.com/' }, 'URL must be a string but received a value of type object'],
    ['a relative URL', 'example.com/a.png', 'URL is not a valid absolute URL'],
    ['no hostname', 'http://', 'URL has no hostname'],
    ['a port but no hostname', 'https://:443/a.png', 'URL has no hostname'],
    ['credentials', 'https://user:secret@example.com/', 'URL must not contain credentials'],
    ['a user name only', 'https://user@example.com/', 'URL must not contain credentials'],
    ['ftp:', 'ftp://example.com/a.png', 'URL scheme "ftp" is not allowed'],
    ['javascript:', 'javascript:alert(1)', 'URL scheme "javascript" is not allowed'],
    ['file:', 'file:///etc/passwd', 'URL scheme "file" is not allowed'],
    ['data:', 'data:image/png;base64,iVBORw0KGgo=', 'URL scheme "data" is not allowed'],
    ['localhost', 'http://localhost/', 'URL host "localhost" is not allowed'],
    ['a .localhost name', 'http://a.localhost/', 'URL host "a.localhost" is not allowed'],
    ['LOCALHOST with a trailing dot', 'http://LOCALHOST./', 'URL host "localhost." is not allowed'],
    ['127.0.0.1', 'http://127.0.0.1/', 'URL host 127.0.0.1 is a loopback address (127.0.0.0/8)'],
    ['a decimal IPv4 form', 'http://2130706433/', 'URL host 127.0.0.1 is a loopback address'],
    ['a hexadecimal IPv4 form', 'http://0x7f.1/', 'URL host 127.0.0.1 is a loopback address'],
    ['the IPv6 loopback', 'http://[::1]/', 'URL host [::1] is a loopback address (::1/128)'],
    ['an IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/', 'is an IPv4-mapped address'],
    ['a private address', 'http://10.1.2.3/', 'URL host 10.1.2.3 is a private address (10.0.0.0/8)'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/', 'is a link-local address'],
    ['the unspecified address', 'http://0.0.0.0:8080/', 'is an unspecified ("this network") address'],
    ['an IPv6 unique local address', 'http://[fd00::1]/', 'is a unique local (private) address'],
  ])('rejects %s', (_name, value, message) => {
    const error = rejection(value);
    expect(error.code).toBe('INVALID_URL');
    expect(error.message).toContain(message);
  });

  it('reports host problems apart from URL form problems', () => {
    expect(checkPublicUrl('http://10.0.0.1/')).toMatchObject({ kind: 'host' });
    expect(checkPublicUrl('ftp://example.com/')).toMatchObject({ kind: 'url' });
  });

  it('marks URL errors as bad requests, not forbidden', () => {
    expect(rejection('http://localhost/').forbidden).toBe(false);
  });
});
