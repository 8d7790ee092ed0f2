import {useEffect, useState} from 'react';

/** Clock for the spinner and elapsed time: ticks only while `active`. */
export function useClock(active: boolean) {
	const [frame, setFrame] = useState(0);
	const [now, setNow] = useState(Date.now());

	useEffect(() => {
		if (!active) {
			setNow(Date.now());
			return;
		}

		const timer = setInterval(() => {
			setFrame(value => value + 1);
			setNow(Date.now());
		}, 120);
		return () => {
			clearInterval(timer);
		};
	}, [active]);

	return {frame, now};
}
