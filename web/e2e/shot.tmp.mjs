import { chromium } from "playwright-core";
const b = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox","--disable-gpu","--disable-quic","--no-first-run","--disable-background-networking","--disable-component-update","--disable-sync"] });
const p = await b.newPage({ viewport: { width: 1100, height: 800 } });
await p.goto("file://" + process.argv[2]);
await p.screenshot({ path: process.argv[3] });
await b.close();
