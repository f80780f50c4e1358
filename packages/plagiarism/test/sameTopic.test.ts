import { describe, expect, it } from 'vitest';
import { analyzePlagiarism, SourceIndex } from '../src/index.js';
import { phonePolicyEssays } from './sameTopic.js';

const essays = phonePolicyEssays(61);
/** Written for this test: a paragraph on the prompt's topic with content of its own. */
const POUCH = 'Last spring our principal tested a pouch system in which every phone was sealed inside a magnetic bag at the classroom door. Detentions for texting fell from forty-one to six within the first semester, according to the attendance office ledger. The pouches cost eleven dollars each and were paid for by the parent association bake sale.';
const TEMPLATE = 'Assignment three: persuasive essay on the school phone policy, submitted for the ninth grade English course in the spring term.\n';
const lenient = { bounds: { min: 0, max: 1e9 }, language: 'en' as const };

function family(texts: string[]): SourceIndex {
  const index = SourceIndex.open();
  index.addMany(texts.map((text, i) => ({ url: `https://essays.example/${i}`, title: `essay ${i}`, text })));
  return index;
}

const passagesOf = async (text: string, index: SourceIndex) => (await analyzePlagiarism(text, { index, ...lenient })).matches
  .flatMap((m) => m.passages.map((p) => ({ url: m.found.document.url, sequence: text.slice(p.inputStart, p.inputEnd) })));

describe('same-topic collections', () => {
  it('does not flag an essay that only shares the prompt topic with its family', async () => {
    expect(await passagesOf(essays[0]!, family(essays.slice(1)))).toEqual([]);
  });

  it('does not flag a template line that every document of the collection carries', async () => {
    const index = family(essays.slice(1).map((essay) => TEMPLATE + essay));
    expect(await passagesOf(TEMPLATE + essays[0]!, index)).toEqual([]);
  });

  it('still finds a passage copied from one essay of the family', async () => {
    const sources = essays.slice(1);
    sources[4] = `${sources[4]} ${POUCH}`;
    const found = await passagesOf(`${essays[0]} ${POUCH}`, family(sources));
    expect(found).toHaveLength(1);
    expect(found[0]!.url).toBe('https://essays.example/4');
    expect(found[0]!.sequence).toContain('pouch system');
    expect(found[0]!.sequence).toContain('bake sale');
  });

  it('still finds a verbatim copy of a sentence pair among same-topic documents', async () => {
    const sources = essays.slice(1);
    const copied = 'Students should keep their phones in a locker during class, since the debate club matters more than a group chat. '
      + 'Parents want to reach students at lunch, so the policy should allow phones for emergencies or for a bus that is running late.';
    sources[12] = `${sources[12]} ${copied}`;
    const found = await passagesOf(`${essays[0]} ${copied}`, family(sources));
    expect(found.map((f) => f.url)).toEqual(['https://essays.example/12']);
    expect(found[0]!.sequence).toContain('running late');
  });

  it('still finds a disguised copy (reworded, one sentence left out) among same-topic documents', async () => {
    const sources = essays.slice(1);
    sources[9] = `${POUCH} ${sources[9]}`;
    // Reworded enough to change most segments, yet with runs of content words the index can still retrieve.
    const disguised = 'Last spring the principal tried out a pouch scheme in which each phone was sealed inside a magnetic bag at the classroom door. '
      + 'Detentions for texting fell from forty-one to six within the first term, said the attendance office ledger.';
    const found = await passagesOf(`${essays[0]} ${disguised}`, family(sources));
    expect(found.map((f) => f.url)).toEqual(['https://essays.example/9']);
  });
});

describe('quotations among same-topic documents', () => {
  it('reports a quotation with an attribution as a citation, not the essay sentences around it', async () => {
    const sources = essays.slice(1);
    sources[7] = `${sources[7]} ${POUCH}`;
    const quoted = POUCH.split('. ').slice(0, 2).join('. ').replace(/\.$/, '');
    const text = `${essays[0]} As Okafor (2021) wrote, "${quoted}." Phones at lunch are still a question for parents and teachers.`;
    const analysis = await analyzePlagiarism(text, { index: family(sources), ...lenient });
    const passages = analysis.matches.flatMap((m) => m.passages);
    expect(passages.length).toBeGreaterThan(0);
    expect(passages.every((p) => p.quoted)).toBe(true);
  });
});
