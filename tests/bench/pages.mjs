// tests/bench/pages.mjs - load and screenshot pages in one headless
// Chromium through the DevTools protocol, timing each from the navigation
// to the finished screenshot (the browser's start is not in it).  One
// browser and one tab for every page, a navigation per page.
//   node --experimental-websocket tests/bench/pages.mjs FILE...
//   node --experimental-websocket tests/bench/pages.mjs --list LISTFILE
// (LISTFILE: one absolute path a line, for more pages than a command line
// takes).  PAGES_SHOT=0: time the load only, no screenshot.  Prints
// "seconds path" per page; a page that has not loaded and been captured
// after PAGES_TIMEOUT seconds (default 60) is printed with that time and
// " timeout", and the next page is loaded.  Exits non-zero when a page
// fails to load or the browser does.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const files = args[0] === '--list' ?
	readFileSync(args[1], 'utf8').split('\n').filter((l) => l !== '') : args;
const shoot = process.env.PAGES_SHOT !== '0';
const pageTimeout = 1000 * Number(process.env.PAGES_TIMEOUT || 60);
const profile = mkdtempSync(join(tmpdir(), 'erg-cdp-'));
const chrome = spawn(process.env.CHROMIUM || 'chromium', [
	'--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
	'--disable-background-networking', '--disable-component-update', '--disable-sync',
	'--hide-scrollbars', `--user-data-dir=${profile}`, '--remote-debugging-port=0',
	'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });

function fail(msg) {
	console.error(`pages: ${msg}`);
	chrome.kill('SIGKILL');
	rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
	process.exit(1);
}
setTimeout(() => fail('timed out'), 60000 + files.length * (pageTimeout + 5000)).unref();

const wsUrl = await new Promise((resolve, reject) => {
	let err = '';
	chrome.stderr.on('data', (d) => {
		err += d;
		const m = /DevTools listening on (ws:\S+)/.exec(err);
		if (m)
			resolve(m[1]);
	});
	chrome.on('exit', () => reject(new Error('chromium exited: ' + err.slice(0, 500))));
}).catch((e) => fail(e.message));

const ws = new WebSocket(wsUrl);
await new Promise((resolve) => ws.addEventListener('open', resolve));
let next = 1;
const pending = new Map();
const waiters = [];
ws.addEventListener('message', (ev) => {
	const msg = JSON.parse(ev.data);
	if (msg.id && pending.has(msg.id)) {
		const { resolve, reject } = pending.get(msg.id);
		pending.delete(msg.id);
		if (msg.error)
			reject(new Error(JSON.stringify(msg.error)));
		else
			resolve(msg.result);
	} else if (msg.method) {
		for (let i = 0; i < waiters.length; i++)
			if (waiters[i].method === msg.method) {
				waiters.splice(i, 1)[0].resolve(msg.params);
				break;
			}
	}
});
function send(method, params = {}, sessionId) {
	const id = next++;
	ws.send(JSON.stringify({ id, method, params, sessionId }));
	return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
function event(method) {
	return new Promise((resolve) => waiters.push({ method, resolve }));
}

try {
	const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
	const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
	await send('Page.enable', {}, sessionId);
	await send('Emulation.setDeviceMetricsOverride',
		{ width: 1280, height: 2000, deviceScaleFactor: 1, mobile: false }, sessionId);
	let done = 0;
	for (const f of files) {
		const t0 = process.hrtime.bigint();
		const loaded = event('Page.loadEventFired');
		let timer;
		const late = new Promise((resolve) => { timer = setTimeout(resolve, pageTimeout, 'timeout'); });
		const load = (async () => {
			const nav = await send('Page.navigate', { url: 'file://' + f }, sessionId);
			if (nav.errorText)
				fail(`${f}: ${nav.errorText}`);
			await loaded;
			if (shoot) {
				const shot = await send('Page.captureScreenshot',
					{ format: 'png', optimizeForSpeed: true }, sessionId);
				if (!shot.data || shot.data.length < 100)
					fail(`${f}: no screenshot`);
			}
			return 'ok';
		})();
		const how = await Promise.race([load, late]);
		clearTimeout(timer);
		const t1 = process.hrtime.bigint();
		console.log(`${(Number(t1 - t0) / 1e9).toFixed(3)} ${f}${how === 'timeout' ? ' timeout' : ''}`);
		if (how === 'timeout') {
			// whatever it still does, the next page starts from a blank one
			const i = waiters.findIndex((w) => w.method === 'Page.loadEventFired');
			if (i >= 0)
				waiters.splice(i, 1);
			await send('Page.navigate', { url: 'about:blank' }, sessionId);
		}
		if (++done % 500 === 0)
			console.error(`pages: ${done} of ${files.length}`);
	}
} catch (e) {
	fail(e.message);
}
ws.close();
// (a browser that already exited, as one did once all its pages were
// timed, emits no 'exit' again: waiting for it hung the bench)
if (chrome.exitCode === null && chrome.signalCode === null) {
	const gone = new Promise((resolve) => chrome.once('exit', resolve));
	chrome.kill('SIGTERM');
	await gone;
}
// Chromium's helper processes may still write into the profile after the
// browser itself exited (seen after 8,919 pages: ENOTEMPTY), which made a
// run whose every page loaded exit 1: wait for them longer, and a profile
// that still cannot be removed is a warning, not a page that failed.
try {
	rmSync(profile, { recursive: true, force: true, maxRetries: 50, retryDelay: 200 });
} catch (e) {
	console.error(`pages: warning: could not remove ${profile}: ${e.message}`);
}
