// Follow-ups as both backends list them. The bookkeeping is SQL per backend:
// store/sqlite/followups.ts and store/postgres/followups.ts.

import type {FollowUpStatus} from './types.js';

export type FollowUpQuery = {channelId?: string; status?: FollowUpStatus; itemId?: string; runId?: string; limit?: number};
