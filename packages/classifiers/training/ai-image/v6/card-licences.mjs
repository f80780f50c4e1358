// Writes into the cards of AI-image versions 6 to 9 (models/ai-image/<v>/card.json) the licence and terms of every
// source the version was trained on (the sources of its per-source tables), from sources.mjs, and a line that names
// the research-only and unlicensed ones (SOURCES.md: a model trained on them says so on its card).
// Usage: node training/ai-image/v6/card-licences.mjs [versions, default 6,7,8,9]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelDir } from '../../paths.mjs';
import { SHARED_TERMS, SOURCES } from './sources.mjs';


/** The sources a card's tables name: version 6 and 7's leave-source-out table, version 8 and 9's two. */
function sourcesOf(card) {
  const m = card.metrics;
  return [...new Set([
    ...Object.keys(m.leave_source_out?.per_source ?? {}),
    ...Object.keys(m.leave_source_out_real ?? {}),
    ...Object.keys(m.leave_source_out_ai ?? {}),
  ])].sort();
}

export function licences(ids) {
  const rows = ids.map((id) => {
    const s = SOURCES.find((x) => x.id === id);
    if (s) return { source: id, repository: s.repo, commit: s.commit, licence: s.licence, terms: s.terms };
    const [terms, licence] = SHARED_TERMS[id] ?? ['no licence stated', 'unknown'];
    return { source: id, repository: 'shared/datasets/images/ai-vs-real-train', licence, terms };
  });
  const named = (terms) => rows.filter((r) => r.terms === terms).map((r) => r.source).join(', ') || 'none';
  return {
    summary: `Trained in part on research-only images (${named('research only')}) and on images whose repositories state no ` +
      `licence (${named('no licence stated')}): this model is for evaluation and research until those sources are replaced.`,
    sources: rows,
  };
}

for (const v of (process.argv[2] ?? '6,7,8,9').split(',')) {
  const path = join(modelDir('ai-image', v), 'card.json');
  // Appended as the card's last key, the rest of the file left byte for byte as train.py wrote it (a rerun replaces it).
  const text = readFileSync(path, 'utf8').replace(/,\n "licences": [\s\S]*$/, '\n}').trimEnd();
  const card = JSON.parse(text);
  card.licences = licences(sourcesOf(card));
  writeFileSync(path, `${text.slice(0, -1).trimEnd()},\n "licences": ${JSON.stringify(card.licences, null, 1).replaceAll('\n', '\n ')}\n}`);
  console.log(`version ${v}: ${card.licences.sources.length} sources; ${card.licences.summary}`);
}
