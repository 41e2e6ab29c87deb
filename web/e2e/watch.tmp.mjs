import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
const dir = mkdtempSync(join(tmpdir(), "rx-"));
const child = spawn("/work/main/target/release/romme", ["serve", "--bind", "127.0.0.1:0", "--database-url", `sqlite:${join(dir, "x.db")}`, "--web", "/work/main/web/dist", "--fixed-seed", process.env.SEED ?? "9"], { stdio: ["ignore", "ignore", "pipe"] });
let buf = "";
const addr = await new Promise((ok) => child.stderr.on("data", (d) => { buf += d; const m = buf.match(/serving on (http:\/\/[0-9.:]+)/); if (m) ok(m[1]); }));
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const presets = (process.env.PRESETS ?? "koenigs").split(",");
const shotsAt = (process.env.AT ?? "3,8").split(",").map(Number);
for (const preset of presets) {
  const ctx = await browser.newContext({ viewport: { width: Number(process.env.W ?? 1280), height: Number(process.env.H ?? 800) } });
  await ctx.addInitScript((l) => localStorage.setItem("romme.lang", l), process.env.LANG2 ?? "en");
  const page = await ctx.newPage();
  page.on("pageerror", (e) => console.log("PAGEERROR", preset, e.message));
  await page.goto(addr);
  await page.fill("input[name=nickname]", "Watcher");
  await page.click("button[type=submit]");
  await page.waitForSelector("select[name=preset] option[value=koenigs-solo]", { state: "attached" });
  await page.selectOption("select[name=preset]", preset);
  if (process.env.SEATS) await page.selectOption("select[name=seats]", process.env.SEATS);
  await page.selectOption("select[name=bot-0]", process.env.BOT0 ?? "heuristic");
  await page.selectOption("select[name=bot-speed]", "100");
  await page.click(".create button.primary");
  await page.waitForURL(/\/t\//);
  await page.click("button:has-text('Spiel starten'), button:has-text('Start match')");
  for (const s of shotsAt) {
    await page.waitForTimeout(s * 1000);
    await page.screenshot({ path: `/tmp/explore2/${preset}-${s}.png`, fullPage: true });
  }
  await ctx.close();
}
await browser.close();
child.kill();
