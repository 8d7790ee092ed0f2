// Store locations: a postgres:// URL or a SQLite file path, and how one may be shown.

/** True for the locations the PostgreSQL backend serves. */
export const isPostgresUrl = (location: string) => /^postgres(ql)?:\/\//i.test(location);

/** A location as it may be shown: a URL loses its password (a file path, or a URL that does not parse, stays as it is). */
export function shownLocation(location: string): string {
	if (!isPostgresUrl(location)) return location;
	try {
		const url = new URL(location);
		url.password = '';
		return url.toString();
	} catch {
		return location;
	}
}
