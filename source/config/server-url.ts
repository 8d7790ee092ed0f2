// The MCP endpoint of a `sift serve` URL, as `--server` and the config file's `server:` give it.
// A setting, so it sits with the config (below source/serve, which it never loads): the TUI and
// the config file check a server URL at start-up without loading the server or the runner.

/** `URL` as given to `sift run --server`, to the MCP endpoint of that server; null when it is no http(s) URL. */
export function mcpEndpoint(serverUrl: string): string | null {
	let url: URL;
	try {
		url = new URL(serverUrl);
	} catch {
		return null;
	}

	if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) return null;
	return `${url.origin}${url.pathname.replace(/\/+$/, '')}/mcp`;
}

/**
 * A server URL as it may be shown in a message: a password in it becomes ***, whether or not the
 * URL parses (the refusal of a malformed URL quotes it).
 */
export function shownServerUrl(serverUrl: string): string {
	return serverUrl.replace(/^([^:/?#\s]+:\/\/[^:/?#@\s]*):[^@/?#]*@/, '$1:***@');
}
