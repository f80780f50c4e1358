import * as z from 'zod';

/**
 * Result schemas of every documented endpoint (spec "Resources and their fields", completed by
 * `response-fields.md`). They are the source of the TypeScript result types, of the JSON Schemas and of the
 * OpenAPI document.
 */

const int = () => z.number().int();

export const attackDetected = z.object({
  zero_width_space: z.boolean(),
  homoglyph_attack: z.boolean(),
});

export const aiContentDetectionResult = z.object({
  status: int(),
  score: z.number().min(0).max(100).describe('Human score: 0 means likely AI, 100 likely human.'),
  sentences: z.array(z.object({ text: z.string(), score: z.number().min(0).max(100) })).optional(),
  input: z.enum(['text', 'file', 'website']),
  attack_detected: attackDetected,
  readability_score: z.number().min(0).max(100),
  credits_used: int(),
  credits_remaining: int(),
  version: z.string(),
  language: z.string(),
  confidence: z.enum(['low', 'medium', 'high']).describe('How far the score can be trusted given the length of the text.'),
});

const manifest = z
  .object({
    vendor: z.string(),
    claim_generator: z.string(),
    title: z.string(),
    credentials: z.record(z.string(), z.unknown()),
    thumbnail: z.object({ identifier: z.string().optional(), format: z.string().optional() }),
    ingredients: z.array(z.unknown()),
    ingredient_paths: z.array(z.string()),
    assertions: z.record(z.string(), z.unknown()),
    alg: z.enum(['ps256', 'ps384', 'ps512', 'es256', 'es384', 'es512', 'ed25519']),
    ta_url: z.string(),
    private_key: z.string(),
    sign_cert: z.string(),
  })
  .partial()
  .catchall(z.unknown());

export const c2paObject = z.object({
  active_manifest: manifest.optional(),
  manifests: z.record(z.string(), manifest).optional(),
}).catchall(z.unknown());

const EXIF_STRING_FIELDS = [
  'DateCreated', 'Description', 'Headline', 'MaxAvailWidth', 'MaxAvailHeight', 'ImageRating', 'DescriptionWriter',
  'Genre', 'RightsUsageTerms', 'SceneCode', 'AdditionalModelInformation', 'Creator', 'CreditLine',
  'CopyrightNotice', 'ImageSupplier', 'Locationcreated', 'MinorModelAgeDisclosure', 'WebStatementofRights',
  'ModelAge', 'ImageSupplierImageID', 'LinkedEncodedRightsExpression', 'DataMining', 'Artwork',
  'ImageRegistryEntry', 'City', 'CodeofOrganisationFeaturedintheImage', 'EventIdentifier', 'EventName',
  'Contributor', 'CopyrightOwner', 'Country', 'DigitalSourceType', 'PropertyReleaseId', 'PropertyReleaseStatus',
  'NameofOrganisationFeaturedintheImage', 'Source', 'DigitalImageGUID', 'Licensor', 'Instructions', 'Title',
] as const;

/** The documented exif fields: all optional strings, but `keywords` (array) and `ImageCreator` (object). */
export const exifObject = z
  .object({
    ...Object.fromEntries(EXIF_STRING_FIELDS.map((name) => [name, z.string().optional()])),
    keywords: z.array(z.string()).optional(),
    ImageCreator: z.record(z.string(), z.unknown()).optional(),
  })
  .catchall(z.unknown());

export const metadataObject = z.object({
  format: z.string(),
  width: int(),
  height: int(),
  autoOrient: z.object({ width: int(), height: int() }),
  space: z.string(),
  channels: int(),
  depth: z.string(),
  isProgressive: z.boolean(),
  isPalette: z.boolean(),
  hasProfile: z.boolean(),
  hasAlpha: z.boolean(),
  orientation: int().optional(),
  size: int().optional(),
  density: z.number().optional(),
  chromaSubsampling: z.string().optional(),
  bitsPerSample: int().optional(),
  pages: int().optional(),
  pageHeight: int().optional(),
  loop: int().optional(),
  delay: z.array(int()).optional(),
  pagePrimary: int().optional(),
  background: z.union([z.object({ r: int(), g: int(), b: int() }), z.object({ gray: z.number() })]).optional(),
  levels: z.array(z.record(z.string(), z.unknown())).optional(),
  subifds: int().optional(),
  resolutionUnit: z.string().optional(),
  formatMagick: z.string().optional(),
  comments: z.array(z.object({ keyword: z.string(), text: z.string() })).optional(),
});

const signalStrength = z.enum(['strong', 'moderate']);

/** Issuer -> its strongest signal strength and every signal that named it (`@content-analysis/image-metadata`). */
export const aiWatermarkIssuers = z.record(
  z.string(),
  z.object({
    strength: signalStrength,
    signals: z.array(z.object({
      signal: z.enum([
        'c2pa_digital_source_type', 'c2pa_claim_generator', 'xmp_digital_source_type', 'png_text_chunk', 'exif_software',
        'exif_user_comment', 'invisible_watermark',
      ]),
      strength: signalStrength,
      evidence: z.string(),
    })),
  }),
);

export const imageDetectionResult = z.object({
  score: int().min(0).max(100).describe('Human score: 0 means AI, 100 human; round(100 * human_probability).'),
  human_probability: z.number().min(0).max(1),
  ai_probability: z
    .number()
    .min(0)
    .max(1)
    .describe('At least 0.99 when the file declares AI generation or carries a decoded watermark, at least 0.9 when its metadata names a generator.'),
  version: z.string().describe('Model version used: 1 to 5 (5 is the default), 6 to 9 or legacy-5.'),
  confidence: z
    .enum(['low', 'medium', 'high'])
    .describe(
      'How far the result can be trusted: low when the AI probability is within 0.1 of 0.5 (the pixels are not conclusive), ' +
        'medium within 0.3, high beyond (a declaration of AI generation in the file gives high).',
    ),
  mime_type: z.enum(['image/jpeg', 'image/png', 'image/webp']),
  c2pa: c2paObject,
  exif: exifObject,
  metadata: metadataObject,
  ai_watermark_detected: z.boolean(),
  ai_watermark_issuers: aiWatermarkIssuers,
  credits_used: int(),
  credits_remaining: int(),
});

export const ADVANCED_TOOL_IDS = [
  'classify_image', 'extract_metadata', 'ela_image', 'residual_noise_maps', 'edge_anomaly_heat_map', 'cfa_pattern_analysis',
] as const;

export const advancedImageDetectionResult = z.object({
  status: int(),
  cost: int(),
  language: z.string(),
  title: z.string(),
  tags: z.array(z.string()),
  tool_used: z.array(z.enum(ADVANCED_TOOL_IDS)),
  label: z.enum(['AI-Generated', 'Human']),
  confidence: z.enum(['High', 'Moderate', 'Low']),
  authenticity: z.enum(['Authentic', 'Manipulated']),
  conclusion: z.string(),
  analysis: z.string(),
  tools_used_analysis: z.array(z.object({ id: z.enum(ADVANCED_TOOL_IDS), analysis: z.string(), result: z.record(z.string(), z.unknown()) })),
  balance: int(),
});

const plagiarismSequence = z.object({ startIndex: z.number(), endIndex: z.number(), sequence: z.string() });

export const plagiarismSource = z.object({
  score: z.number(),
  canAccess: z.boolean(),
  url: z.string(),
  title: z.string(),
  plagiarismWords: z.number(),
  identicalWordCounts: z.number(),
  similarWordCounts: z.number(),
  totalNumberOfWords: z.number(),
  author: z.string(),
  description: z.string(),
  publishedDate: z.number(),
  source: z.string(),
  citation: z.boolean(),
  plagiarismFound: z.array(plagiarismSequence),
  is_excluded: z.boolean(),
});

export const plagiarismResult = z.object({
  status: int(),
  scanInformation: z.object({ service: z.string(), scanTime: z.string(), inputType: z.string(), language: z.string() }),
  result: z.object({
    score: z.number(),
    sourceCounts: z.number(),
    textWordCounts: z.number(),
    totalPlagiarismWords: z.number(),
    identicalWordCounts: z.number(),
    similarWordCounts: z.number(),
  }),
  sources: z.array(plagiarismSource),
  attackDetected: attackDetected,
  text: z.string(),
  similarWords: z.array(z.object({ index: z.number(), word: z.string() })),
  citations: z.array(z.string()),
  indexes: z.array(plagiarismSequence),
  credits_used: int(),
  credits_remaining: int(),
});

export const plagiarismV1Result = z.object({
  status: int(),
  results: z.object({ title: z.string(), url: z.string(), excerpts: z.record(z.string(), z.unknown()), date: z.string() }).or(
    z.array(z.object({ title: z.string(), url: z.string(), excerpts: z.record(z.string(), z.unknown()), date: z.string() })),
  ),
  results_count: int(),
  credits_used: int(),
  credits_remaining: int(),
});

export const CLAIM_VERDICTS = ['SUPPORTED', 'PARTIALLY_SUPPORTED', 'NOT_ENOUGH_EVIDENCE', 'REFUTED'] as const;

export const factCheckerResult = z.object({
  status: int(),
  claims: z
    .array(
      z.object({
        id: int(),
        sentence: z.string(),
        claim: z.string(),
        verdict: z.enum(CLAIM_VERDICTS),
        score: int().min(0).max(100),
        explanation: z.string(),
        links: z.array(z.object({ url: z.string(), title: z.string() })),
      }),
    )
    .max(12),
  score: int().min(0).max(100),
  claimsCount: int().min(0).max(12),
  text: z.string(),
  sentences: z.array(z.object({ id: int(), text: z.string() })),
  input: z.enum(['text', 'file', 'website']),
  language: z.string(),
  creditsUsed: int(),
  creditsRemaining: int(),
  wordCount: int(),
});

export const textCompareItem = z.object({
  type: z.enum(['identical', 'minor_changes']),
  word_count: int(),
  index_start: int(),
  length: int(),
});

export const textCompareSide = z.object({
  total_word_count: int(),
  matching_word_count: int(),
  similarity_percentage: z.number().min(0).max(100),
  items: z.array(textCompareItem),
});

export const textCompareResult = z.object({
  status: int(),
  similarity_score: z.number().min(0).max(100),
  first_text: textCompareSide,
  second_text: textCompareSide,
  credits_used: int(),
  credits_remaining: int(),
});

export type AiContentDetectionResult = z.infer<typeof aiContentDetectionResult>;
export type ImageDetectionResult = z.infer<typeof imageDetectionResult>;
export type AdvancedImageDetectionResult = z.infer<typeof advancedImageDetectionResult>;
export type PlagiarismResult = z.infer<typeof plagiarismResult>;
export type PlagiarismV1Result = z.infer<typeof plagiarismV1Result>;
export type FactCheckerResult = z.infer<typeof factCheckerResult>;
export type TextCompareResult = z.infer<typeof textCompareResult>;
