/**
 * Host and Origin checks against DNS rebinding (docs/team-mode.md#security-model): a page on another
 * site that resolves its own name to this machine still sends its own name in Host and Origin.
 */
export class AllowedHosts {
	/** Entries as `host:port` (exact) or `host` (any port), lower case, IPv6 in brackets. */
	private readonly entries: Set<string>;

	constructor(entries: Iterable<string>) {
		this.entries = new Set([...entries].map(entry => entry.trim().toLowerCase()).filter(Boolean));
	}

	/** The listen address, plus the loopback names when it is a loopback address, plus `extra`. */
	static forListen(host: string, port: number, extra: readonly string[] = []): AllowedHosts {
		const names = [formatHost(host)];
		if (isLoopback(host)) names.push('localhost', '127.0.0.1', '[::1]');
		return new AllowedHosts([...names.map(name => `${name}:${port}`), ...extra]);
	}

	/** A Host header value (`name[:port]`). */
	allowsHost(header: string | undefined): boolean {
		if (!header) return false;
		const value = header.trim().toLowerCase();
		return this.entries.has(value) || this.entries.has(hostnameOf(value));
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
		const port = origin.port || (origin.protocol === 'https:' ? '443' : '80');
		const host = origin.hostname.toLowerCase();
		return this.entries.has(`${host}:${port}`) || this.entries.has(host);
	}
}

export function formatHost(host: string): string {
	return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function isLoopback(host: string): boolean {
	return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

function hostnameOf(value: string): string {
	if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
	const colon = value.lastIndexOf(':');
	return colon === -1 ? value : value.slice(0, colon);
}
