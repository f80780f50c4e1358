import { C2paUnavailableError } from '../errors.js';
import { c2paReader } from './c2paReader.js';
import { findC2paStore, type C2paLocation } from './findC2paStore.js';
import { stripSecrets, toManifestObject, type C2paManifestObject } from './toManifestObject.js';

/** One validation failure of the store, as the C2PA SDK reports it (`claimSignature.mismatch`, ...). */
export interface C2paValidationEntry {
  code: string;
  url?: string;
  explanation?: string;
}

/**
 * The `c2pa` object: the documented `active_manifest` and `manifests`, plus `validation_state` ('valid' when no
 * failure code was reported, 'invalid' otherwise, 'unverified' for a remote manifest not fetched),
 * `validation_status` (failure codes), and `manifest_location` ('embedded' or 'remote', with `remote_manifest_url`).
 * A file without C2PA gives `{}`.
 */
export interface C2paObject {
  [field: string]: unknown;
  active_manifest?: C2paManifestObject;
  active_manifest_label?: string;
  manifests?: Record<string, C2paManifestObject>;
  manifest_location?: 'embedded' | 'remote';
  remote_manifest_url?: string;
  validation_state?: 'valid' | 'invalid' | 'unverified';
  validation_status?: C2paValidationEntry[];
}

/** Options of {@link readC2pa}. */
export interface ReadC2paOptions {
  /**
   * Check the signing certificate against the C2PA trust list. Off by default: most test and self-signed
   * credentials would then all read `signingCredential.untrusted`, and the bundled list may be stale.
   * @default false
   */
  verifyTrust?: boolean;
}

const REMOTE = /must fetch remote manifests from url (\S+)|RemoteManifestUrl\("([^"]+)"\)/i;
const NOT_FOUND = /JumbfNotFound|no JUMBF data found/i;
/** Success codes the SDK may list in `validation_status`; everything else there is a failure. */
const NOT_FAILURES = /(\.match|\.validated|\.trusted|\.inside|\.insideValidity|\.notRevoked|\.success)$/;

/** Reads and validates the C2PA manifest store of an image; never fetches anything from the network. */
export async function readC2pa(
  bytes: Uint8Array,
  format: 'jpeg' | 'png' | 'webp',
  mimeType: string,
  xmp: string | undefined,
  options: ReadC2paOptions = {},
): Promise<C2paObject> {
  return readC2paAt(bytes, mimeType, findC2paStore(bytes, format, xmp), options);
}

/** {@link readC2pa} with the store already located (by the walk that read the file's header). */
export async function readC2paAt(
  bytes: Uint8Array, mimeType: string, location: C2paLocation, options: ReadC2paOptions = {},
): Promise<C2paObject> {
  if (!location.embedded && !location.provenance) return {};
  if (!location.embedded && location.provenance?.startsWith('self#jumbf=')) {
    // The XMP points into the file, but there is no store: a stripped or broken file.
    return {
      validation_state: 'invalid',
      validation_status: [{ code: 'claim.missing', url: location.provenance, explanation: 'XMP provenance points to an embedded manifest store that is absent' }],
    };
  }
  const settings = JSON.stringify({
    verify: { remote_manifest_fetch: false, ocsp_fetch: false, verify_trust: options.verifyTrust ?? false },
  });
  // Loaded only for a file that has a store; a reader that cannot load is an error, never an `invalid` file.
  const { WasmReader } = await c2paReader().catch((error: unknown) => {
    throw new C2paUnavailableError({ cause: error });
  });
  let store: Record<string, unknown>;
  try {
    const reader = await WasmReader.fromBytes(mimeType, bytes, settings);
    try {
      store = JSON.parse(reader.json()) as Record<string, unknown>;
    } finally {
      reader.free();
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (NOT_FOUND.test(message)) return {};
    const remote = REMOTE.exec(message);
    if (remote) {
      return { manifest_location: 'remote', remote_manifest_url: remote[1] ?? remote[2]!, validation_state: 'unverified', validation_status: [] };
    }
    return {
      manifest_location: 'embedded',
      validation_state: 'invalid',
      validation_status: [{ code: sdkErrorCode(message), explanation: message }],
    };
  }
  const manifests: Record<string, C2paManifestObject> = {};
  const raw = (store['manifests'] ?? {}) as Record<string, Record<string, unknown>>;
  for (const [label, manifest] of Object.entries(raw)) manifests[label] = toManifestObject({ label, ...manifest });
  const activeLabel = typeof store['active_manifest'] === 'string' ? store['active_manifest'] : undefined;
  const status = Array.isArray(store['validation_status']) ? (store['validation_status'] as Record<string, unknown>[]) : [];
  const failures = status
    .map((s) => stripSecrets(s) as C2paValidationEntry)
    .filter((s) => typeof s.code === 'string' && !NOT_FAILURES.test(s.code));
  const out: C2paObject = {};
  if (activeLabel && manifests[activeLabel]) {
    out.active_manifest = manifests[activeLabel];
    out.active_manifest_label = activeLabel;
  }
  out.manifests = manifests;
  // Remote manifests are never fetched (the read above fails with their URL), so a store that was read is embedded.
  out.manifest_location = 'embedded';
  out.validation_state = failures.length === 0 ? 'valid' : 'invalid';
  out.validation_status = failures;
  return out;
}

/** The SDK's read errors mapped to the closest C2PA status code, so a caller always sees a code. */
function sdkErrorCode(message: string): string {
  if (/prerelease/i.test(message)) return 'manifest.unsupportedVersion';
  if (/claim.*missing|missing.*claim/i.test(message)) return 'claim.missing';
  if (/signature/i.test(message)) return 'claimSignature.mismatch';
  if (/hash/i.test(message)) return 'assertion.dataHash.mismatch';
  return 'manifest.unreadable';
}
