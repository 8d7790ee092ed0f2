// The seeded demo generator for the bug-tracker channel.
//
// The output is a pure function of (count, seed, now): the same three give the same items,
// byte for byte. `now` defaults to the current time; created_at values and due dates are
// placed relative to it (created_at over the ~120 days before `now`, oldest first).
//
// A description runs 300 to 4,000 characters of markdown (descriptionBody: numbered steps, a
// pasted code block, a list, links, from a stream of its own) and ends with the reporter's triage
// wishes in a person's words, one line:
//   Triage wishes: status <S>, owner <O>, severity <V>, points <P>, due <D>, area <A>.
// <S> a status label other than New ("Triaged", "In progress", "Fixed", "Won't fix"),
// <O> an owner label ("Aiko"), <V> a severity label ("S2 Major") or a bare word ("major"),
// <P> one of 1 2 3 5 8 13 20, <D> "Friday" or a YYYY-MM-DD date 1..30 days after `now`,
// <A> an area label ("Sync"). parseTriageWishes() reads it back.

import type {Channel, SelectOption} from '../store/index.js';
import channelFile from './bugs.channel.json' with {type: 'json'};

export interface GeneratedItem {
	values: Record<string, unknown>;
	created_at: string;
}

export interface GenerateOptions {
	count: number;
	seed: number;
	now?: Date;
}

export type TriageWishKey = 'status' | 'owner' | 'severity' | 'points' | 'due' | 'area';
export type TriageWishes = Record<TriageWishKey, string>;

/** The channel of bugs.channel.json (the `channel` member of the import file). */
export const bugsChannel: Channel = (channelFile as unknown as {channel: Channel}).channel;

export const TRIAGE_WISH_KEYS: readonly TriageWishKey[] = ['status', 'owner', 'severity', 'points', 'due', 'area'];

const DAY_MS = 86_400_000;
const SPAN_DAYS = 120;
const HOSTILE_EVERY = 500;
const HOSTILE_OFFSET = 7;

function optionsOf(key: string): SelectOption[] {
	const field = bugsChannel.fields.find(f => f.key === key);
	const options = field?.config['options'];
	if (!Array.isArray(options)) {
		throw new Error(`bugs.channel.json: field ${key} has no options`);
	}
	return options as SelectOption[];
}

const statusOptions = optionsOf('status');
const ownerOptions = optionsOf('owner');
const severityOptions = optionsOf('severity');
const areaOptions = optionsOf('area');

const ownerValues = ownerOptions.map(o => o.value);
const ownerLabels = ownerOptions.map(o => o.label);
const severityValues = severityOptions.map(o => o.value);
const severityLabels = severityOptions.map(o => o.label);
// "S2 Major" -> "major"
const severityWords = severityLabels.map(l => l.slice(l.indexOf(' ') + 1).toLowerCase());
const areaValues = areaOptions.map(o => o.value);
const areaLabels = areaOptions.map(o => o.label);
const statusLabel = new Map(statusOptions.map(o => [o.value, o.label]));

// Statuses of the ~15% that are not new, with cumulative weights out of 15.
const TRIAGED_STATUSES: ReadonlyArray<[string, number]> = [
	['triaged', 5],
	['in_progress', 9],
	['fixed', 13],
	['wont_fix', 15],
];
const NEW_SHARE = 0.85;

// What reporters ask for: never "New".
const wishStatusLabels = ['triaged', 'in_progress', 'in_progress', 'fixed', 'wont_fix'].map(v => statusLabel.get(v)!);
const WISH_POINTS = ['1', '2', '3', '5', '8', '13', '20'];
const VALID_POINTS = [0, 1, 2, 3, 5, 8, 13];

const SUBJECTS: Record<string, string[]> = {
	sync: ['Sync', 'Background sync', 'Offline queue', 'Conflict resolver', 'Delta upload', 'Sync indicator'],
	ui: ['Sidebar', 'Settings dialog', 'Toast notification', 'Dark mode theme', 'Date picker', 'Keyboard shortcut overlay'],
	storage: ['Attachment cache', 'Local database', 'Export to CSV', 'Trash folder', 'Thumbnail store', 'Backup job'],
	auth: ['Login form', 'SSO redirect', 'Session refresh', 'Password reset email', 'Two-factor prompt', 'Token rotation'],
	api: ['Webhook delivery', 'REST pagination', 'Rate limiter', 'Bulk update endpoint', 'API key scope check', 'GraphQL gateway'],
	search: ['Search index', 'Full-text search', 'Search suggestions', 'Saved filter', 'Result highlighting', 'Tag search'],
};
const PROBLEMS = [
	'stalls', 'crashes', 'hangs', 'drops changes', 'loops forever', 'shows stale data', 'times out',
	'duplicates entries', 'ignores retries', 'leaks memory', 'freezes the window', 'returns 500',
	'loses the cursor position', 'flickers', 'reports the wrong count', 'silently fails',
];
const CONTEXTS = [
	'after resume', 'on metered network', 'when the clock skews', 'with more than 10k items',
	'on first launch', 'after upgrading to 4.2', 'behind a corporate proxy', 'in dark mode',
	'on a second monitor', 'after a password change', 'with emoji in the name', 'when offline',
	'on slow disks', 'under heavy load', 'right after login', 'in the Japanese locale',
];
const FIRST_SENTENCES = [
	'Happens about every other time I try it since this morning.',
	'Reproducible on two laptops here, both on the latest build.',
	'I first noticed it during the Monday stand-up demo, which was awkward.',
	'Three people on my team hit this in the last week.',
	'It started right after the last update, nothing else changed on my side.',
	'Only seems to happen on the shared workspace, my personal one is fine.',
	'Support forwarded this after a customer complained twice.',
	'Steps: open the app, wait a minute, then repeat what the title says.',
];
const SECOND_SENTENCES = [
	'Restarting helps for a while but it comes back.',
	'Logs show nothing obvious, screenshot is in the shared drive.',
	'Expected it to just work, instead I have to redo my changes by hand.',
	'Not blocking me, but it is embarrassing in front of clients.',
	'This blocks our release checklist until someone looks at it.',
	'The workaround is clunky: copy everything out and paste it back.',
	'Clearing the cache did not change anything.',
	'Happy to pair on it if someone wants to see it live.',
];
const REPORTER_NAMES = [
	'dana', 'lee.wong', 'p.ortiz', 'sam', 'noor', 'jonas.berg', 'amelie', 'k.tanaka', 'olu', 'marta.s',
	'ivan', 'chen.li', 'priya', 'tom.h', 'sofia', 'bjorn', 'yuki', 'a.haddad', 'grace', 'mo',
];
const REPORTER_DOMAINS = ['example.com', 'example.org', 'example.net'];
const REPORTERS: string[] = [];
for (const domain of REPORTER_DOMAINS) {
	for (const name of REPORTER_NAMES) {
		REPORTERS.push(`${name}@${domain}`);
	}
}

// Deliberately hostile titles (about 1 in 500 items) so the TUI's sanitizer gets exercised.
const HOSTILE_TITLES = [
	'Crash log pasted raw: \u001b[31mFATAL\u001b[0m in sync worker',
	'Window title changes \u001b]0;pwned\u0007 after opening an attachment',
	'Upload accepts reversed name invoice\u202etxt.exe without warning',
	'Everything at once: \u001b[31mred\u001b[0m \u001b]0;pwned\u0007 \u202eesrever',
];

/** mulberry32: a tiny, fast, seeded 32-bit PRNG. Returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function isoDate(ms: number): string {
	return new Date(ms).toISOString().slice(0, 10);
}

/** Builds the wishes line exactly as the generator writes it. */
export function formatTriageWishes(wishes: TriageWishes): string {
	return `Triage wishes: status ${wishes.status}, owner ${wishes.owner}, severity ${wishes.severity}, `
		+ `points ${wishes.points}, due ${wishes.due}, area ${wishes.area}.`;
}

const WISH_KEY_SET = new Set<string>(TRIAGE_WISH_KEYS);

/**
 * Reads the reporter's triage wishes back out of a description: the raw words per key
 * (status, owner, severity, points, due, area), exactly as written — no mapping to option
 * values. Keys that are missing are absent; a description without wishes gives `{}`.
 */
export function parseTriageWishes(description: string): Record<string, string> {
	const result: Record<string, string> = {};
	const marker = 'Triage wishes:';
	const start = description.lastIndexOf(marker);
	if (start === -1) {
		return result;
	}
	let rest = description.slice(start + marker.length);
	const newline = rest.indexOf('\n');
	if (newline !== -1) {
		rest = rest.slice(0, newline);
	}
	rest = rest.trim();
	if (rest.endsWith('.')) {
		rest = rest.slice(0, -1);
	}
	for (const part of rest.split(',')) {
		const trimmed = part.trim();
		const space = trimmed.indexOf(' ');
		if (space === -1) {
			continue;
		}
		const key = trimmed.slice(0, space);
		const value = trimmed.slice(space + 1).trim();
		if (WISH_KEY_SET.has(key) && value !== '' && !Object.hasOwn(result, key)) {
			result[key] = value;
		}
	}
	return result;
}

/** What a reporter pastes, by area: the command or log lines that go in a code block. */
const CODE_SAMPLES = [
	'$ sift sync --verbose\nfetching page 3 of 12…\nerror: connection reset by peer (retry 2/5)\nerror: connection reset by peer (retry 3/5)',
	'TypeError: Cannot read properties of undefined (reading \'version\')\n    at applyEdit (edit.js:118:22)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
	'GET /api/v2/items?after=1834 HTTP/1.1\n< 502 Bad Gateway\n< retry-after: 30\n< x-request-id: 7f3c9a1e',
	'2026-03-02T09:14:07Z WARN export: row 411 skipped (value too long)\n2026-03-02T09:14:07Z WARN export: row 412 skipped (value too long)\n2026-03-02T09:14:08Z INFO export: 1,204 rows written',
	'SELECT id, version FROM items WHERE channel_id = \'bugs\' ORDER BY seq DESC LIMIT 50;\n-- 50 rows, 4,812 ms',
	'panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nmain.render(...)\n\t/app/ui/list.go:88 +0x1d4',
];
const STEPS = [
	'Open the app and sign in with a fresh account', 'Switch to the **Bugs** channel', 'Filter the list by `status:new`',
	'Mark three rows with `Space`', 'Press `e` and change the owner', 'Put the laptop to sleep for ten minutes', 'Wake it and wait for the next sync',
	'Export the view as CSV', 'Reload the page with the cache disabled', 'Paste a 2 MB log into the description', 'Resize the window to half the screen',
	'Rename a label from the settings page',
];
const ENVIRONMENTS = ['macOS 14.4, Safari 17', 'Windows 11, Chrome 123', 'Ubuntu 22.04, Firefox 125', 'iOS 17.3 on an iPhone 13', 'Android 14, Pixel 7', 'Debian 12 in a container, Node 20.11'];
const NOTES = [
	'It started after the last update; the week before it worked every time.',
	'A colleague on the same network cannot reproduce it, which makes me think it depends on the account.',
	'I tried clearing the cache and signing out and in again; no change.',
	'It happens about one time in three, more often in the morning when the queue is long.',
	'The workaround for now is to do it twice, which is not great with a hundred tickets.',
	'Support asked me to file this here; their reference is in the link below.',
	'Nothing in the browser console except the warning quoted above.',
];
const LINKS = ['[the support thread](https://support.example.com/t/4821)', '[a screen recording](https://files.example.com/rec/91b2.mp4)', '[the nightly log](https://logs.example.com/nightly/2026-03-02)', '[the design note](https://wiki.example.com/sync/retries)'];

/** The longest and shortest a description runs: reporters write a line or paste whole logs. */
const DESCRIPTION_MIN = 300;
const DESCRIPTION_MAX = 4000;

/**
 * The markdown body of a description between its opening sentences and its wishes line: steps as a
 * numbered list, a pasted code block, the environment as a list, notes with links, as many as
 * bring the whole description (`fixed` characters besides) to a length drawn from 300 to 4,000.
 * Drawn from its own stream, so the items' other values are those of a seed whatever the bodies.
 */
function descriptionBody(random: () => number, fixed: number): string {
	const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
	// Most reports are short, a few long: the square leans the draw toward the short end.
	const target = DESCRIPTION_MIN + Math.floor(random() ** 2 * (DESCRIPTION_MAX - DESCRIPTION_MIN));
	const blocks = [
		() => `Steps to reproduce:\n\n${Array.from({length: 2 + Math.floor(random() * 4)}, (_, index) => `${index + 1}. ${pick(STEPS)}`).join('\n')}`,
		() => `What I see:\n\n\`\`\`\n${pick(CODE_SAMPLES)}\n\`\`\``,
		() => `Environment:\n\n- ${pick(ENVIRONMENTS)}\n- build ${1 + Math.floor(random() * 9)}.${Math.floor(random() * 20)}.${Math.floor(random() * 100)}\n- about ${1 + Math.floor(random() * 40)} tickets in the view`,
		() => `${pick(NOTES)} See ${pick(LINKS)}.`,
	];
	const parts: string[] = [];
	let length = fixed;
	for (let index = 0; length < target; index++) {
		const block = blocks[index % blocks.length]!();
		if (length + block.length + 2 > DESCRIPTION_MAX) break;
		parts.push(block);
		length += block.length + 2;
	}

	return parts.join('\n\n');
}

/**
 * Yields `count` bug items, oldest first. About 85% are `new` (ticket, title, description,
 * status, reporter); the rest also carry owner, severity, points, area and due, all valid.
 */
export function* generateBugItems(options: GenerateOptions): Generator<GeneratedItem> {
	const {count, seed} = options;
	if (!Number.isSafeInteger(count) || count < 0) {
		throw new RangeError(`count must be a non-negative integer, got ${String(count)}`);
	}
	if (!Number.isFinite(seed)) {
		throw new RangeError(`seed must be a finite number, got ${String(seed)}`);
	}
	const nowMs = (options.now ?? new Date()).getTime();
	if (!Number.isFinite(nowMs)) {
		throw new RangeError('now must be a valid date');
	}
	const random = mulberry32(seed);
	const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
	// The descriptions' bodies draw from a stream of their own: the other values stay as they were.
	const bodyRandom = mulberry32(seed + 0x9E_37_79_B9);

	const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
	// Wished due dates: 1..30 days ahead. Actual due dates: 30 days ago .. 60 days ahead.
	const wishDates: string[] = [];
	for (let d = 1; d <= 30; d++) {
		wishDates.push(isoDate(today + d * DAY_MS));
	}
	const dueDates: string[] = [];
	for (let d = -30; d <= 60; d++) {
		dueDates.push(isoDate(today + d * DAY_MS));
	}

	const width = Math.max(4, String(count).length);
	const spanMs = SPAN_DAYS * DAY_MS;
	const startMs = Math.floor(nowMs) - spanMs;
	const stepMs = count > 0 ? spanMs / count : 0;
	// Item i is created in [startMs + floor(i * step), startMs + floor((i + 1) * step)):
	// strictly increasing while a step is at least 1 ms (count up to ~10 billion).
	let slotStart = 0;

	for (let i = 0; i < count; i++) {
		const areaIndex = Math.floor(random() * areaValues.length);
		const area = areaValues[areaIndex];
		const title = (i % HOSTILE_EVERY === HOSTILE_OFFSET)
			? HOSTILE_TITLES[Math.floor(i / HOSTILE_EVERY) % HOSTILE_TITLES.length]
			: `${pick(SUBJECTS[area])} ${pick(PROBLEMS)} ${pick(CONTEXTS)}`;

		// The wishes: mostly about the title's own area, sometimes the reporter guesses another.
		const wishArea = random() < 0.8 ? areaIndex : Math.floor(random() * areaLabels.length);
		const wishOwner = Math.floor(random() * ownerLabels.length);
		const wishSeverity = Math.floor(random() * severityLabels.length);
		const wishSeverityText = random() < 0.5 ? severityLabels[wishSeverity] : severityWords[wishSeverity];
		const wishPoints = pick(WISH_POINTS);
		const wishDue = random() < 0.5 ? 'Friday' : pick(wishDates);
		const opening = `${pick(FIRST_SENTENCES)} ${pick(SECOND_SENTENCES)}`;
		const wishes = `Triage wishes: status ${pick(wishStatusLabels)}, owner ${ownerLabels[wishOwner]}, `
			+ `severity ${wishSeverityText}, points ${wishPoints}, due ${wishDue}, area ${areaLabels[wishArea]}.`;
		const body = descriptionBody(bodyRandom, opening.length + wishes.length + 2);
		const description = `${opening}\n\n${body === '' ? '' : `${body}\n\n`}${wishes}`;

		const values: Record<string, unknown> = {
			ticket: `BUG-${String(i + 1).padStart(width, '0')}`,
			title,
			description,
			status: 'new',
			reporter: pick(REPORTERS),
		};
		if (random() >= NEW_SHARE) {
			const r = random() * 15;
			let status = TRIAGED_STATUSES[TRIAGED_STATUSES.length - 1][0];
			for (const [value, upTo] of TRIAGED_STATUSES) {
				if (r < upTo) {
					status = value;
					break;
				}
			}
			values['status'] = status;
			// Whoever triaged it mostly followed the wishes, within what the schema allows.
			values['owner'] = random() < 0.7 ? ownerValues[wishOwner] : pick(ownerValues);
			values['severity'] = random() < 0.7 ? severityValues[wishSeverity] : pick(severityValues);
			values['points'] = pick(VALID_POINTS);
			values['area'] = areaValues[wishArea];
			values['due'] = pick(dueDates);
		}

		const slotEnd = Math.floor((i + 1) * stepMs);
		const createdMs = startMs + slotStart + Math.floor(random() * (slotEnd - slotStart));
		slotStart = slotEnd;
		yield {values, created_at: new Date(createdMs).toISOString()};
	}
}
