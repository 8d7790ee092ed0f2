// Events as both backends write and read them. SQLite's are store/sqlite/events.ts, PostgreSQL's
// store/postgres/events.ts; the read rules are store/write-rules.ts.

import type {Actor, Changes, EventCause, EventType} from './types.js';

export type NewEvent = {type: EventType; item_id: string; version: number; actor: Actor; changes: Changes; at: string; cause?: EventCause};

export const EVENT_PAGE_LIMIT = 100;
