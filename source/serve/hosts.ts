// Host and Origin checks against DNS rebinding; `--allow-host` entries parsed and checked.

import {networkInterfaces} from 'node:os';

/**
 * Host and Origin checks against DNS rebinding (docs/team-mode.md#security-model): a page on another
 * site that resolves its own name to this machine still sends its own name in Host and Origin.
 */
export class AllowedHosts {
	/** Host name (lower case, IPv6 in brackets) → the ports allowed, or `any`. */
	private readonly entries = new Map<string, Set<number> | 'any'>();

	constructor(entries: Iterable<HostEntry>) {
		for (const {name, port} of entries) {
			const known = this.entries.get(name);
			if (port === undefined || known === 'any') this.entries.set(name, 'any');
			else this.entries.set(name, new Set([...(known ?? []), port]));
		}
	}

	/**
	 * The listen address, plus the loopback names when it is a loopback or wildcard address, plus
	 * this machine's own addresses when it is a wildcard (0.0.0.0, ::), plus `extra`.
	 */
	static forListen(host: string, port: number, extra: readonly HostEntry[] = [], interfaces: () => string[] = localAddresses): AllowedHosts {
		const names = [formatHost(host)];
		if (isLoopback(host) || isWildcard(host)) names.push('localhost', '127.0.0.1', '[::1]');
		if (isWildcard(host)) names.push(...interfaces().map(formatHost));
		return new AllowedHosts([...names.map(name => ({name: name.toLowerCase(), port})), ...extra]);
	}

	/**
	 * A Host header value (`name[:port]`). A Host without a port means the scheme's default port:
	 * it matches an entry for port 80 or 443 (a TLS proxy in front may forward it as it came).
	 */
	allowsHost(header: string | undefined): boolean {
		const parsed = header === undefined ? undefined : parseHostPort(header);
		return parsed !== undefined && this.allows(parsed.name, parsed.port === undefined ? DEFAULT_PORTS : [parsed.port]);
	}

	/** An Origin header value; the literal `null` (sandboxed pages, files) is refused. */
	allowsOrigin(header: string): boolean {
		let origin: URL;
		try {
			origin = new URL(header);
		} catch {
			return false;
		}

		if (origin.protocol !== 'http:' && origin.protocol !== 'https:') return false;
		const port = Number(origin.port || (origin.protocol === 'https:' ? 443 : 80));
		return this.allows(trimDot(origin.hostname.toLowerCase()), [port]);
	}

	private allows(name: string, ports: readonly number[]): boolean {
		const allowed = this.entries.get(name);
		return allowed === 'any' || (allowed !== undefined && ports.some(port => allowed.has(port)));
	}
}

/** One `--allow-host` entry: a name, and the one port it allows (undefined: any port). */
export type HostEntry = {name: string; port?: number};

const DEFAULT_PORTS = [80, 443];

/**
 * `HOST`, `HOST:PORT`, `[V6]` or `[V6]:PORT` as given to `--allow-host`, lower-cased; null when
 * it is none of these (a URL, a path, an empty name, a port out of range).
 */
export function parseAllowHost(entry: string): HostEntry | null {
	const parsed = parseHostPort(entry);
	if (!parsed || (parsed.port !== undefined && (parsed.port < 1 || parsed.port > 65_535))) return null;
	return parsed;
}

const NAME = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;
const HOST_PORT = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/;

/** `name[:port]` (Host header syntax), lower case, a trailing dot dropped; undefined when malformed. */
function parseHostPort(value: string): HostEntry | undefined {
	const match = HOST_PORT.exec(value.trim().toLowerCase());
	if (!match) return undefined;
	const name = match[1]!.startsWith('[') ? match[1]! : trimDot(match[1]!);
	if (!name.startsWith('[') && !NAME.test(name)) return undefined;
	return match[2] === undefined ? {name} : {name, port: Number(match[2])};
}

const trimDot = (name: string) => (name.endsWith('.') ? name.slice(0, -1) : name);

export function formatHost(host: string): string {
	return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function isLoopback(host: string): boolean {
	return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

function isWildcard(host: string): boolean {
	return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** This machine's own addresses (what a client on the LAN may put in Host); link-local IPv6 left out (it needs a zone). */
function localAddresses(): string[] {
	return Object.values(networkInterfaces()).flatMap(list => list ?? []).filter(entry => !(entry.family === 'IPv6' && entry.scopeid)).map(entry => entry.address);
}

/** `--allow-host` values as entries; throws naming the first that is malformed. */
export function allowHostEntries(values: readonly string[]): HostEntry[] {
	return values.map(value => {
		const entry = parseAllowHost(value);
		if (!entry) {
			const shown = JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
			const hint = /^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim()) ? ' (a host name, not a URL: leave out the scheme)' : '';
			throw new Error(`--allow-host must be HOST or HOST:PORT (IPv6 in brackets), e.g. sift.internal or proxy.example:443; got ${shown}${hint}`);
		}

		return entry;
	});
}
