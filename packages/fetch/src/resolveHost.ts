import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { raceAbort } from './deadline.js';
import { FetchError } from './errors.js';
import { checkAddress } from './isPublicAddress.js';
import type { ResolvedAddress } from './options.js';
import { bareHostname } from './validatePublicUrl.js';

/** Default resolver: the system resolver (`getaddrinfo`), every address, in its order. */
export async function systemResolve(hostname: string): Promise<ResolvedAddress[]> {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
}

/**
 * Addresses to connect to for the URL host, every one of them public. An IP literal needs no DNS.
 * One non-public answer rejects the whole host: a mixed answer is how DNS rebinding gets in.
 *
 * @throws {FetchError} `NETWORK` when the name does not resolve, `FORBIDDEN_ADDRESS` on a non-public answer.
 */
export async function resolveCheckedAddresses(
  url: URL,
  resolve: ((hostname: string) => Promise<ResolvedAddress[]>) | undefined,
  signal: AbortSignal,
): Promise<ResolvedAddress[]> {
  const hostname = bareHostname(url);
  const literal = isIP(hostname);
  let addresses: ResolvedAddress[];
  if (literal !== 0) {
    addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await raceAbort((resolve ?? systemResolve)(hostname), signal);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const reason = (error as { code?: unknown }).code ?? (error as Error).message;
      throw new FetchError('NETWORK', `Could not resolve host ${hostname} (${String(reason)})`, {
        url: url.href,
        cause: error,
      });
    }
    if (!Array.isArray(addresses) || addresses.length === 0) {
      throw new FetchError('NETWORK', `Host ${hostname} has no addresses`, { url: url.href });
    }
  }
  for (const { address } of addresses) {
    const verdict = checkAddress(String(address));
    if (!verdict.public) {
      throw new FetchError(
        'FORBIDDEN_ADDRESS',
        `Host ${hostname} resolves to ${verdict.reason}; only public addresses are allowed`,
        { url: url.href, address: String(address) },
      );
    }
  }
  return addresses;
}
