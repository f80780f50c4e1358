import { linkedom } from '../lazyModules.js';

// The package compiles without the DOM library: the few DOM members used here are typed by hand.

/** A DOM node as linkedom provides it. */
export interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  parentNode: DomNode | null;
}

/** A DOM element as linkedom provides it. */
export interface DomElement extends DomNode {
  tagName: string;
  getAttribute(name: string): string | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  remove(): void;
  prepend(...nodes: (DomNode | string)[]): void;
}

/** A DOM document as linkedom provides it. */
export interface DomDocument {
  documentElement: DomElement;
  body: DomElement | null;
  title: string;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

/**
 * Parses an HTML string into a document (no scripts run, nothing is fetched). A page that writes no `<html>` element
 * (plain text served as HTML, a fragment such as `<p>…</p>`) gets one around it, with a `<body>`, as a browser
 * implies them: linkedom alone leaves `documentElement` null (and `body` throwing) or the fragment's first element
 * (and `body` empty).
 */
export function parseDocument(html: string): DomDocument {
  const document = linkedom().parseHTML(html).document as unknown as { documentElement: DomElement | null };
  if (document.documentElement?.tagName === 'HTML') return document as DomDocument;
  const content = html.replace(/^\s*<!doctype[^>]*>/i, '');
  return linkedom().parseHTML(`<!DOCTYPE html><html><head></head><body>${content}</body></html>`).document as unknown as DomDocument;
}
