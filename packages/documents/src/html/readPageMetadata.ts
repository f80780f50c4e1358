import type { DocumentMetadata } from '../types.js';
import { normaliseInline } from '../textBuilder.js';
import type { DomDocument } from './dom.js';

type JsonObject = Record<string, unknown>;
const ARTICLE_TYPES = /^(?:Article|NewsArticle|BlogPosting|Report|ScholarlyArticle|TechArticle|WebPage|Blog|OpinionNewsArticle|ReportageNewsArticle|AnalysisNewsArticle)$/;

/**
 * Reads title, author, description, publication date, site name and language from a page's metadata, in this order
 * of preference: JSON-LD (schema.org Article and its kinds), OpenGraph and `article:*` properties, Twitter cards,
 * plain `<meta name>` tags (`author`, `description`, `date`, Dublin Core), then `<title>` and `<time datetime>`.
 */
export function readPageMetadata(document: DomDocument): DocumentMetadata {
  const meta = (...keys: string[]): string | undefined => {
    for (const key of keys) {
      const element = document.querySelector(`meta[property="${key}"], meta[name="${key}"], meta[itemprop="${key}"]`);
      const content = clean(element?.getAttribute('content'));
      if (content !== undefined) return content;
    }
    return undefined;
  };
  const ld = jsonLdArticle(document);
  const metadata: DocumentMetadata = {};
  const title = clean(ld?.['headline']) ?? clean(ld?.['name']) ?? meta('og:title', 'twitter:title', 'dc.title', 'DC.title')
    ?? clean(document.querySelector('title')?.textContent);
  const author = jsonLdAuthor(ld?.['author']) ?? meta('author', 'article:author', 'dc.creator', 'DC.creator', 'twitter:creator')
    ?? clean(document.querySelector('[rel="author"], [itemprop="author"]')?.textContent);
  const description = clean(ld?.['description']) ?? meta('og:description', 'description', 'twitter:description', 'dc.description');
  const published = clean(ld?.['datePublished']) ?? meta('article:published_time', 'og:published_time', 'datePublished', 'date',
    'dc.date', 'DC.date', 'pubdate') ?? clean(document.querySelector('time[datetime]')?.getAttribute('datetime'));
  const siteName = meta('og:site_name', 'application-name');
  const language = clean(document.documentElement.getAttribute('lang')) ?? meta('og:locale');
  if (title !== undefined) metadata.title = title;
  if (author !== undefined) metadata.author = author;
  if (description !== undefined) metadata.description = description;
  if (published !== undefined) metadata.publishedAt = normaliseDate(published);
  if (siteName !== undefined) metadata.siteName = siteName;
  if (language !== undefined) metadata.language = language;
  return metadata;
}

function clean(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = normaliseInline(value);
  return text === '' ? undefined : text;
}

/** The first schema.org article-like object of the page's JSON-LD scripts (top level, arrays or `@graph`). */
function jsonLdArticle(document: DomDocument): JsonObject | undefined {
  for (const script of Array.from(document.querySelectorAll('script[type="application/ld+json"]'))) {
    let data: unknown;
    try {
      data = JSON.parse(script.textContent ?? '');
    } catch {
      continue; // A broken JSON-LD block leaves the other metadata sources usable.
    }
    const queue: unknown[] = [data];
    while (queue.length > 0) {
      const item = queue.shift();
      if (Array.isArray(item)) queue.push(...item);
      else if (item !== null && typeof item === 'object') {
        const object = item as JsonObject;
        const types = ([] as unknown[]).concat(object['@type'] ?? []);
        if (types.some((type) => typeof type === 'string' && ARTICLE_TYPES.test(type))) return object;
        if (object['@graph'] !== undefined) queue.push(object['@graph']);
      }
    }
  }
  return undefined;
}

function jsonLdAuthor(author: unknown): string | undefined {
  const names = ([] as unknown[]).concat(author ?? []).map((entry) =>
    typeof entry === 'string' ? clean(entry) : entry !== null && typeof entry === 'object' ? clean((entry as JsonObject)['name']) : undefined,
  ).filter((name): name is string => name !== undefined);
  return names.length === 0 ? undefined : names.join(', ');
}

/** ISO 8601 when the date parses, the original text otherwise. */
function normaliseDate(value: string): string {
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}
