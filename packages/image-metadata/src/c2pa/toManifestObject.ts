/** The documented manifest object plus a few SDK fields kept for context; never key material. */
export interface C2paManifestObject {
  [field: string]: unknown;
  label?: string;
  vendor?: string;
  claim_generator?: string;
  title?: string;
  format?: string;
  instance_id?: string;
  credentials?: Record<string, unknown>;
  thumbnail?: { identifier?: string; format?: string };
  ingredients?: unknown[];
  ingredient_paths?: string[];
  assertions?: Record<string, unknown>;
  alg?: 'ps256' | 'ps384' | 'ps512' | 'es256' | 'es384' | 'es512' | 'ed25519';
  ta_url?: string;
  sign_cert?: string;
  signature_info?: Record<string, unknown>;
}

const ALGS = new Set(['ps256', 'ps384', 'ps512', 'es256', 'es384', 'es512', 'ed25519']);
/** Fields that may hold keys or raw certificates in some SDK versions: dropped whatever their shape. */
const SECRET_FIELDS = new Set(['private_key', 'privateKey', 'cert_chain', 'certificate_chain', 'sign_cert_pem']);

type Json = Record<string, unknown>;

/** Maps one SDK manifest (c2pa-rs `Manifest` JSON) to the documented manifest object. */
export function toManifestObject(manifest: Json): C2paManifestObject {
  const out: C2paManifestObject = {};
  copyString(out, 'label', manifest['label']);
  copyString(out, 'vendor', manifest['vendor']);
  const generator = claimGenerator(manifest);
  if (generator) out.claim_generator = generator;
  copyString(out, 'title', manifest['title']);
  copyString(out, 'format', manifest['format']);
  copyString(out, 'instance_id', manifest['instance_id']);
  const thumbnail = manifest['thumbnail'] as Json | undefined;
  if (thumbnail && typeof thumbnail === 'object') {
    out.thumbnail = {};
    if (typeof thumbnail['identifier'] === 'string') out.thumbnail.identifier = thumbnail['identifier'];
    if (typeof thumbnail['format'] === 'string') out.thumbnail.format = thumbnail['format'];
  }
  const ingredients = Array.isArray(manifest['ingredients']) ? (manifest['ingredients'] as Json[]) : [];
  out.ingredients = ingredients.map((ingredient) => stripSecrets(ingredient));
  out.ingredient_paths = ingredients.map((i) => (typeof i['title'] === 'string' ? i['title'] : '')).filter((t) => t.length > 0);
  out.assertions = assertionMap(manifest['assertions']);
  const credentials = manifest['credentials'];
  out.credentials = Array.isArray(credentials)
    ? Object.fromEntries(credentials.map((c, i) => [String(i), stripSecrets(c)]))
    : credentials && typeof credentials === 'object' ? (stripSecrets(credentials) as Json) : {};
  const signature = manifest['signature_info'] as Json | undefined;
  if (signature && typeof signature === 'object') {
    const alg = typeof signature['alg'] === 'string' ? signature['alg'].toLowerCase() : undefined;
    if (alg && ALGS.has(alg)) out.alg = alg as C2paManifestObject['alg'];
    const parts: string[] = [];
    for (const [key, name] of [['issuer', 'issuer'], ['common_name', 'subject'], ['cert_serial_number', 'serial'], ['time', 'time']] as const) {
      if (typeof signature[key] === 'string') parts.push(`${name}=${signature[key] as string}`);
    }
    if (parts.length > 0) out.sign_cert = parts.join('; ');
    out.signature_info = stripSecrets(signature) as Json;
  }
  if (typeof manifest['claim_version'] === 'number') out['claim_version'] = manifest['claim_version'];
  return out;
}

function claimGenerator(manifest: Json): string | undefined {
  if (typeof manifest['claim_generator'] === 'string' && manifest['claim_generator'].length > 0) return manifest['claim_generator'];
  const info = manifest['claim_generator_info'];
  if (!Array.isArray(info)) return undefined;
  const parts = (info as Json[])
    .map((i) => (typeof i['name'] === 'string' ? (typeof i['version'] === 'string' ? `${i['name']}/${i['version']}` : i['name']) : ''))
    .filter((p) => p.length > 0);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function assertionMap(assertions: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!Array.isArray(assertions)) return out;
  for (const assertion of assertions as Json[]) {
    const label = typeof assertion['label'] === 'string' ? assertion['label'] : 'unlabelled';
    let key = label;
    for (let n = 1; key in out; n++) key = `${label}__${n}`;
    out[key] = { label, data: stripSecrets(assertion['data']) };
  }
  return out;
}

function copyString(out: C2paManifestObject, key: string, value: unknown): void {
  if (typeof value === 'string' && value.length > 0) out[key] = value;
}

/** Deep copy without key material, whatever the nesting. */
export function stripSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSecrets);
  if (value && typeof value === 'object') {
    const out: Json = {};
    for (const [key, inner] of Object.entries(value as Json)) if (!SECRET_FIELDS.has(key)) out[key] = stripSecrets(inner);
    return out;
  }
  return value;
}
