// The header's tabs on a terminal narrower than the tab bar: the active view's tab is always drawn,
// the fewest tabs in front of it left out behind a marker.

import {describe, expect, it} from 'vitest';
import {firstTabShown, TABS_CUT} from '../../source/ui/components/tabs.js';

describe('firstTabShown', () => {
	const widths = [10, 16, 15, 9, 11, 12];
	it('draws from the first tab when the active one fits', () => {
		expect(firstTabShown(widths, 2, 80)).toBe(0);
		expect(firstTabShown(widths, -1, 20)).toBe(0);
	});

	it('leaves out the fewest tabs in front so that the active one fits with the marker', () => {
		// 10+16+15+9+11+12 = 73: the sixth does not fit in 60; without the first two it does (47 + marker).
		const first = firstTabShown(widths, 5, 60);
		expect(first).toBe(2);
		expect(widths.slice(first).reduce((a, b) => a + b, TABS_CUT.length)).toBeLessThanOrEqual(60);
		expect(widths.slice(first - 1).reduce((a, b) => a + b, TABS_CUT.length)).toBeGreaterThan(60);
	});

	it('never skips the active tab itself, however narrow', () => {
		expect(firstTabShown(widths, 3, 5)).toBe(3);
	});
});
