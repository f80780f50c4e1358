import { describe, expect, it } from 'vitest';
import { findCitedSites, hostOf, InvalidExcludedSourceError, isCitedSource, isExcluded, parseExcludedSources } from '../src/index.js';

describe('excluded sources', () => {
  const rules = parseExcludedSources(['example.com', 'https://news.site.org/a/b']);

  it('excludes a domain and its subdomains, but not look-alike domains', () => {
    expect(isExcluded('https://example.com/x', rules)).toBe(true);
    expect(isExcluded('http://deep.sub.example.com/', rules)).toBe(true);
    expect(isExcluded('https://notexample.com/x', rules)).toBe(false);
    expect(isExcluded('https://example.com.evil.net/x', rules)).toBe(false);
  });

  it('excludes a full URL exactly and case-sensitively', () => {
    expect(isExcluded('https://news.site.org/a/b', rules)).toBe(true);
    expect(isExcluded('https://news.site.org/a/b/c', rules)).toBe(false);
    expect(isExcluded('https://news.site.org/A/b', rules)).toBe(false);
    expect(isExcluded('https://Example.com/x', rules)).toBe(false);
  });

  it('rejects entries that are neither domains nor http(s) URLs, naming the index', () => {
    expect(() => parseExcludedSources(['ok.com', 'bad domain'])).toThrow(/excluded_sources\[1\]/);
    expect(() => parseExcludedSources(['mailto:a@b.c'])).toThrow(InvalidExcludedSourceError);
    expect(() => parseExcludedSources(['ftp://a.com/'])).toThrow(/only http and https/);
    expect(() => parseExcludedSources(['https://'])).toThrow(InvalidExcludedSourceError);
    expect(() => parseExcludedSources([''])).toThrow(InvalidExcludedSourceError);
  });

  it('reads the host as written', () => {
    expect(hostOf('https://user@Sub.Example.com:8080/x')).toBe('Sub.Example.com');
    expect(hostOf('not a url')).toBeUndefined();
  });
});

describe('citations', () => {
  it('finds cited sites and matches sources against them', () => {
    const cited = findCitedSites('See https://www.nature.com/articles/x1, and also wikipedia.org. Nothing else.');
    expect(cited).toEqual(['https://www.nature.com/articles/x1', 'wikipedia.org']);
    expect(isCitedSource('https://en.wikipedia.org/wiki/Bee', cited)).toBe(true);
    expect(isCitedSource('https://nature.com/articles/x1', cited)).toBe(true);
    expect(isCitedSource('https://www.nature.com/articles/x2', cited)).toBe(false);
  });
});
