import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../src/bm25.js';
import { InvalidArgumentError } from '../src/errors.js';
import { EvidenceStore } from '../src/evidenceStore.js';

describe('Bm25Index', () => {
  it('ranks the document with the rarer matching term first', () => {
    const index = new Bm25Index();
    index.add(['tower', 'paris', 'iron']);
    index.add(['tower', 'london']);
    index.add(['river', 'london']);
    const hits = index.search(['tower', 'paris'], 5);
    expect(hits.map((h) => h.doc)).toEqual([0, 1]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });
});

describe('EvidenceStore', () => {
  const store = new EvidenceStore(
    [
      { url: 'https://a.example/eiffel', title: 'Eiffel Tower', text: 'It was completed in 1889. It is 330 metres tall.' },
      { url: 'https://a.example/thames', title: 'River Thames', text: 'The Thames flows through London. It is 346 kilometres long.' },
    ],
    { passageWords: 6 },
  );

  it('splits documents into sentence passages and finds them through the title too', () => {
    expect(store.documentCount).toBe(2);
    expect(store.passageCount).toBe(4);
    const [best] = store.search('How tall is the Eiffel Tower?', 1);
    expect(best?.url).toBe('https://a.example/eiffel');
    expect(best?.text).toBe('It is 330 metres tall.');
  });

  it('returns nothing for a query with no shared term', () => {
    expect(store.search('photosynthesis in algae')).toEqual([]);
  });

  it('rejects a document without text, naming the field', () => {
    expect(() => store.add({ url: 'x', title: 'y' } as never)).toThrow(InvalidArgumentError);
    expect(() => store.add({ url: 'x', title: 'y' } as never)).toThrow(/document\.text/);
  });
});
