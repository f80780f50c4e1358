// The public repositories the version 6 AI-image corpus is built from: the sets vetted in
// ../shared/datasets/SOURCES.md, each pinned to the commit that was vetted, with the rule that picks its images and
// names their generator family (AI) or the kind of photo (real). Nothing here is on SOURCES.md's reserved list.

/** Tweet ids are snowflakes: milliseconds since the Twitter epoch in the bits above 22. */
function tweetDate(id) {
  return new Date(Number(BigInt(id) >> 22n) + 1288834974657);
}

/** The day GPT-5 / Nano Banana era posts begin in songguoxs/gpt4o-image-prompts (SOURCES.md: dated by post). */
const GPT4O_ERA_END = new Date('2025-08-26T00:00:00Z');

/**
 * songguoxs/gpt4o-image-prompts: one Markdown section per case with its model (`模型：X`) and the tweet it was
 * reposted from. Only the case's own output image `images/<N>.<ext>` is taken: the extra images of a case
 * (`<N>-2.jpeg`, ...) include the reference photos users attached. A case without a model is a GPT-4o /
 * gpt-image-1 output when posted before 2025-08-26; later unlabelled cases are left out.
 */
export function songguoxsCases(markdownFiles) {
  const cases = new Map();
  for (const text of markdownFiles) {
    for (const m of text.matchAll(/##\s*案例\s*(\d+)[^\n]*?status\/(\d+)[^\n]*/g)) {
      const line = m[0];
      const model = /模型[：:]\s*([^\n(]+)/.exec(line)?.[1]?.trim().toLowerCase() ?? '';
      cases.set(m[1], { model, posted: tweetDate(m[2]) });
    }
  }
  return cases;
}

function songguoxsFamily(model, posted) {
  if (model.includes('banana pro')) return 'nano-banana-pro';
  if (model.includes('banana')) return 'nano-banana';
  if (model.includes('grok')) return 'grok';
  if (model.includes('gpt') || model.includes('4o')) return posted < GPT4O_ERA_END ? 'gpt-image' : null;
  if (model === '' && posted < GPT4O_ERA_END) return 'gpt-image';
  return null;
}

/** amiantos/AI-Horde-Styles: the AI Horde models whose baseline is SDXL (the Horde's model reference); others are SD 1.x/2.x. */
const HORDE_SDXL = new Set(['AlbedoBase XL (SDXL)', 'SDXL 1.0', 'ICBINP XL', 'Fustercluck']);

/** amiantos/AI-Horde-Styles: preview file stem (the style's name, non-alphanumerics as `_`, lower case) to its model. */
function hordeModels(stylesJson) {
  const styles = JSON.parse(stylesJson);
  return new Map(Object.entries(styles).map(([name, style]) => [name.replace(/[^a-z0-9]/gi, '_').toLowerCase(), style.model]));
}

const DCSAN_MODELS = {
  ldif: 'latent-diffusion', dmin: 'dalle-mini', glid3: 'glid3', midj: 'midjourney-v3', disco: 'disco-diffusion',
  simu: 'simulacra', stab: 'stable-diffusion', dal2: 'dalle2', mdif: 'majesty-diffusion',
};

/**
 * What a model trained on each source may be used for, as its card says: `open` (a licence that allows use, or the
 * repository's own licence for its sample outputs), `research only` (ImageNet's terms, BSDS, the Oxford-102 flowers,
 * Manga109 and the other restoration sets) or `no licence stated`.
 *
 * The subsets of ../shared/datasets/images/ai-vs-real-train, as their READMEs say (by the corpus's source ids).
 */
export const SHARED_TERMS = {
  'avrt-denoise-sr-benchmarks': ['research only', 'Kodak, BSDS/Corel and SUN images: research use (subset README)'],
  'avrt-imagen-t2i-multimodel': ['no licence stated', 'dcsan/imagen: no licence file; outputs of third-party services'],
  'avrt-imagenet-class-samples': ['research only', 'ImageNet terms of access (non-commercial research)'],
  'avrt-official-model-samples': ['open', 'model repositories: OpenRAIL-M, MIT, Apache-2.0 (subset README)'],
  'avrt-stylegan2-ffhq-faces': ['research only', 'NVIDIA Source Code License (non-commercial)'],
};

/**
 * Each source: repository, vetted commit (prefix), licence, `terms` (above), label, and `pick(path, context)` returning the family
 * (AI) or photo kind (real) of a file, or null to leave it out. `context` holds what `prepare` read first;
 * `tiles: {grid, keep}` cuts each file into grid x grid tiles and keeps those numbered in `keep` (row by row).
 */
export const SOURCES = [
  {
    id: 'songguoxs', terms: 'no licence stated', repo: 'songguoxs/gpt4o-image-prompts', commit: '27ee9f06bcf7', licence: 'none stated (reposted from X)',
    label: 'ai',
    prepare: (read, files) => songguoxsCases(files.filter((f) => /^(README|\d+)\.md$/.test(f)).map(read)),
    pick(path, cases) {
      const m = /^images\/(\d+)\.(png|jpe?g|webp)$/i.exec(path);
      const c = m && cases.get(m[1]);
      return c ? songguoxsFamily(c.model, c.posted) : null;
    },
  },
  {
    id: 'samuxbuilds', terms: 'open', repo: 'samuxbuilds/awesome-prompts', commit: '43c81bb3af69', licence: 'MIT', label: 'ai',
    pick: (path) => (/^public\/media\/.+\.webp$/i.test(path) ? 'nano-banana' : null),
  },
  {
    id: 'picotrex', terms: 'open', repo: 'PicoTrex/Awesome-Nano-Banana-images', commit: '7d344750a40e', licence: 'Apache-2.0', label: 'ai',
    pick: (path) => (/^images\/case\d+\/output[^/]*\.(png|jpe?g|webp)$/i.test(path) ? 'nano-banana' : null),
  },
  {
    id: 'aimikoda', terms: 'open', repo: 'aimikoda/awesome-nano-banana-pro', commit: '378b0b18f49f', licence: 'CC BY 4.0', label: 'ai',
    pick: (path) => (/^images\/.+\.(png|jpe?g|webp)$/i.test(path) ? 'nano-banana-pro' : null),
  },
  {
    id: 'jamez-bondos', terms: 'open', repo: 'jamez-bondos/awesome-gpt4o-images', commit: '3ed4dbb0f1ae', licence: 'CC BY 4.0 (gpt-image-1 folder: OpenAI notice)',
    label: 'ai',
    pick: (path) => (/^(cases\/\d+|gpt-image-1\/examples)\/[^/]+\.(png|jpe?g|webp)$/i.test(path) ? 'gpt-image' : null),
  },
  {
    id: 'andygock-flux', terms: 'open', repo: 'andygock/FLUX-Style-CheatSheet', commit: '8f532cbc5ee3', licence: 'MIT; FLUX-dev output terms', label: 'ai',
    pick: (path) => (/^img\/flux\/[^/]+\.webp$/i.test(path) ? 'flux' : null),
  },
  {
    id: 'bfl-flux', terms: 'open', repo: 'black-forest-labs/flux', commit: '802fb4713906', licence: 'Apache-2.0 (repository)', label: 'ai',
    pick: (path) => (/^assets\/(cup|robot|dev_grid|schnell_grid|grid|flux-1-krea-dev-grid)\.(png|jpe?g|webp)$/i.test(path) ? 'flux' : null),
  },
  {
    id: 'supagruen-sd15', terms: 'open', repo: 'SupaGruen/StableDiffusion-CheatSheet', commit: '169c57dce400', licence: 'MIT', label: 'ai',
    pick: (path) => (/^img\/[^/]+\.webp$/i.test(path) ? 'stable-diffusion' : null),
  },
  {
    id: 'sd35-artists', terms: 'open', repo: 'EnragedAntelope/Artists-SD35L', commit: 'f28b471e3bc9', licence: 'MIT', label: 'ai',
    pick: (path) => (/^gallery-assets\/[^/]+\.(png|jpe?g|webp)$/i.test(path) ? 'sd3' : null),
  },
  {
    id: 'hunyuan-dit', terms: 'open', repo: 'Tencent/HunyuanDiT', commit: '368280ec3511', licence: 'Tencent Hunyuan community licence (repository)', label: 'ai',
    // Only the asset folders SOURCES.md vets: `comfyui/` holds an image of the reserved comfyanonymous/ComfyUI_examples.
    pick: (path) =>
      /^(ipadapter\/asset\/output|controlnet\/asset\/output|lora\/asset\/porcelain\/inference)\/[^/]+\.(png|jpe?g)$/i.test(path)
        ? 'hunyuan-dit'
        : null,
  },
  {
    id: 'kandinsky-3', terms: 'open', repo: 'ai-forever/Kandinsky-3', commit: 'a4c9e92e4d9b', licence: 'Apache-2.0 (repository)', label: 'ai',
    pick: (path) => (/^assets\/(photo_\d+|kandinsky|butterly_effect)\.jpg$/i.test(path) ? 'kandinsky' : null),
  },
  {
    id: 'dcsan-imagen', terms: 'no licence stated', repo: 'dcsan/imagen', commit: 'c6f37ebed13e', licence: 'none stated', label: 'ai',
    pick(path) {
      const m = /^output\/renders\/[^/]+\/([a-z0-9]+)(-\d+)?\.(png|jpe?g)$/i.exec(path);
      return m ? (DCSAN_MODELS[m[1]] ?? null) : null;
    },
  },
  {
    // Style previews rendered through the AI Horde; each style's model in styles.json (checked unchanged between the
    // commit that added each preview and this one). Three fixed prompts (a man with coffee, New York at night, a red car).
    id: 'ai-horde-styles', terms: 'open', repo: 'amiantos/AI-Horde-Styles', commit: 'c61af24fcc15', licence: 'CC0 1.0', label: 'ai',
    prepare: (read) => hordeModels(read('styles.json')),
    pick(path, models) {
      const m = /^preview_generator\/images\/(.+)_(person|place|thing)\.webp$/.exec(path);
      const model = m && models.get(m[1]);
      return model ? (HORDE_SDXL.has(model) ? 'sdxl' : 'stable-diffusion') : null;
    },
  },
  {
    // Midjourney --sref previews saved in May 2024 (numeric style references: the version 6 era; niji 6 possible; the
    // version is inferred from the dates, not stated). Each file is a 600 px 2 x 2 grid: two of its tiles are taken
    // (top left, bottom right), cut losslessly.
    id: 'savedsrefs-mj', terms: 'no licence stated', repo: 'Shak404/SavedSREFs', commit: 'cc32aabb1510', licence: 'none stated', label: 'ai',
    tiles: { grid: 2, keep: [0, 3] },
    pick: (path) => (/^images\/\d+-(frac|land|port)\.jpg$/.test(path) ? 'midjourney-v6' : null),
  },
  {
    // Research image-restoration sets collected in one repository: colour Manga109 covers (human-made drawings, with
    // their titles), Urban100 (Flickr city scenes) and Sun-Hays 80 (web scene photos). CBSD68 repeats BSDS500: left out.
    id: 'denoising-datasets', terms: 'research only', repo: 'majedelhelou/denoising_datasets', commit: '58234876fef6', licence: 'research sets (Manga109: academic research only)',
    label: 'real',
    pick: (path) =>
      /^CManga109\/[^/]+\.png$/.test(path) ? 'drawing (Manga109 cover)'
        : /^CUrban100\/img_\d+\.png$/.test(path) ? 'web photo (Urban100)'
          : /^CSun_Hays80\/[^/]+\.jpg$/.test(path) ? 'web photo (Sun-Hays)'
            : null,
  },
  {
    id: 'digicam', terms: 'open', repo: 'drewnoakes/digicam_corpus', commit: '6385e5eacf2d', licence: 'CC0', label: 'real',
    pick: (path) => (/^[^/]+\/[^/]+\/.+\.(jpe?g|png|heic)$/i.test(path) ? 'camera original' : null),
  },
  {
    id: 'metadata-extractor', terms: 'open', repo: 'drewnoakes/metadata-extractor-images', commit: '4beba6404878', licence: 'free to use however you wish',
    label: 'real',
    pick: (path) => (/^jpg\/[^/]+\.jpe?g$/i.test(path) ? 'camera or phone photo' : null),
  },
  {
    id: 'imagenet-samples', terms: 'research only', repo: 'EliSchwartz/imagenet-sample-images', commit: 'bc69043e2862', licence: 'ImageNet terms (non-commercial research)',
    label: 'real',
    pick: (path) => (/^n\d+_[^/]+\.jpe?g$/i.test(path) ? 'web photo (ImageNet)' : null),
  },
  {
    id: 'bsds500', terms: 'research only', repo: 'BIDS/BSDS500', commit: 'a04b7c6c3a9f', licence: 'research and education only', label: 'real',
    pick: (path) => (/^BSDS500\/data\/images\/(train|val|test)\/\d+\.jpg$/i.test(path) ? 'stock photo (Corel, BSDS)' : null),
  },
  {
    id: 'flowers102', terms: 'research only', repo: 'kahraman-mustafa/flower-classifier-pytorch-ai', commit: '9469a8f2f4c1', licence: 'none stated (Oxford-102 research set)',
    label: 'real',
    // One subject only: a sample, so that flowers do not become what "real" means.
    limit: 2400,
    pick: (path) => (/^flowers\/(train|valid|test)\/\d+\/[^/]+\.jpg$/i.test(path) ? 'flower photo (Oxford-102)' : null),
  },
];
