// End-to-end tests of the web client in Debian's Chromium (playwright-core):
// a real `romme serve` on loopback with a fresh SQLite file serves the built
// client. Scenarios: lobby → create a klassisch table with bots → a refused
// action shows its reason → play the whole game through the UI (following
// the hint button) → reload mid-game and go on → the score sheet. Screenshots
// go to e2e/screenshots/.
//
// Usage: node e2e/run.mjs   (ROMME_BIN, CHROMIUM override the defaults)

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const web = resolve(here, "..");
const bin = process.env.ROMME_BIN ?? resolve(web, "../target/release/romme");
const shots = join(here, "screenshots");
let sawJoker = false;
mkdirSync(shots, { recursive: true });

function fail(msg) {
  console.error(`e2e: FAILED: ${msg}`);
  process.exitCode = 1;
  throw new Error(msg);
}

async function startServer() {
  const dir = mkdtempSync(join(tmpdir(), "romme-e2e-"));
  const child = spawn(
    bin,
    ["serve", "--bind", "127.0.0.1:0", "--database-url", `sqlite:${join(dir, "e2e.db")}`, "--web", join(web, "dist")],
    { env: { ...process.env, ROMME_LOG: "warn" }, stdio: ["ignore", "ignore", "pipe"] },
  );
  const addr = await new Promise((ok, no) => {
    let buf = "";
    child.stderr.on("data", (d) => {
      buf += d;
      const m = buf.match(/serving on (http:\/\/[0-9.:]+)/);
      if (m) ok(m[1]);
    });
    child.on("exit", (c) => no(new Error(`server exited ${c}: ${buf}`)));
    setTimeout(() => no(new Error(`server did not start: ${buf}`)), 20000);
  });
  return { child, addr };
}

async function main() {
  const { child, addr } = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    // The joker declaration prompt: answer with the hint's declarations, in order.
    page.on("dialog", (d) => void d.accept((page.__declarations ?? []).shift() ?? ""));
    page.setDefaultTimeout(20000);

    // Lobby.
    await page.goto(addr);
    await page.fill("input[name=nickname]", "Erika");
    await page.click("button[type=submit]");
    await page.waitForSelector("text=Tisch anlegen");
    await page.selectOption("select[name=preset]", "klassisch");
    await page.selectOption("select[name=bot-speed]", "100");
    await page.screenshot({ path: join(shots, "lobby.png"), fullPage: true });
    await page.click("button.primary:has-text('Tisch anlegen')");
    await page.waitForURL(/\/t\//);
    await page.click("button:has-text('Spiel starten')");
    await page.waitForSelector("[data-testid=hand] [data-card]");

    // A refused action shows the engine's reason (translated): discard
    // before drawing, on our first turn.
    await waitForTurn(page);
    await page.click("[data-testid=hand] li:first-child button");
    await page.click("[data-testid=discard-button]");
    const refusal = await page.textContent("[data-testid=refusal]");
    if (!refusal?.includes("Du musst zuerst")) fail(`refusal text: ${refusal}`);
    console.log(`e2e: refused with reason: ${refusal.trim()}`);
    await page.click("[data-testid=refusal] button");
    await page.click("button:has-text('Auswahl aufheben')");

    // Play the whole game through the UI, following the hint.
    let actions = 0;
    let reloaded = false;
    let lastRefused = null;
    for (let step = 0; step < 2000; step++) {
      if (await finished(page)) break;
      if (!(await waitForTurn(page))) continue;
      if (actions === 6 && !reloaded) {
        await page.screenshot({ path: join(shots, "table.png"), fullPage: true });
        await page.reload();
        await page.waitForSelector("[data-testid=hand] [data-card]");
        reloaded = true;
        console.log("e2e: reloaded mid-game; the hand is back");
        continue;
      }
      const action = await hint(page);
      if (!action) {
        await page.waitForTimeout(100);
        continue;
      }
      const key = JSON.stringify(action);
      if (key === lastRefused) fail(`the hinted action was refused twice: ${key}`);
      if (await perform(page, action)) lastRefused = key;
      else lastRefused = null;
      actions += 1;
    }
    if (!(await finished(page))) fail("the game did not end");
    if (!reloaded) fail("the game ended before the reload");
    await page.waitForSelector("[data-testid=score-sheet] tbody tr");
    const rows = await page.$$eval("[data-testid=score-sheet] tbody tr", (r) => r.length);
    if (rows !== 4) fail(`score sheet has ${rows} rows`);
    await page.screenshot({ path: join(shots, "score-sheet.png"), fullPage: true });
    console.log(`e2e: a full game of klassisch through the UI, ${actions} actions of ours; score sheet with ${rows} rows`);
    console.log(`e2e: ${sawJoker ? "a joker meld with declarations was played through the UI" : "no joker meld came up in this deal"}`);
  } finally {
    await browser.close();
    child.kill("SIGKILL");
  }
}

async function finished(page) {
  return (await page.$$("[data-testid=score-sheet] tbody tr")).length > 0;
}

async function waitForTurn(page) {
  try {
    await page.waitForFunction(
      () => {
        const s = document.querySelector(".status")?.textContent ?? "";
        return s.includes("Du bist dran") || document.querySelectorAll("[data-testid=score-sheet] tbody tr").length > 0;
      },
      undefined,
      { timeout: 60000 },
    );
  } catch {
    fail("our turn never came");
  }
  return !(await finished(page));
}

async function hint(page) {
  await page.click("[data-testid=hint]");
  try {
    await page.waitForSelector("[data-testid=hint-text]", { timeout: 5000 });
  } catch {
    return null;
  }
  const text = await page.getAttribute("[data-testid=hint-text]", "data-action");
  return text ? JSON.parse(text) : null;
}

async function select(page, cards) {
  await page.click("button:has-text('Auswahl aufheben')").catch(() => {});
  const used = new Set();
  for (const c of cards) {
    const plain = c.startsWith("*") ? "*" : c;
    const buttons = await page.$$(`[data-testid=hand] button[data-card="${plain}"]`);
    let done = false;
    for (const b of buttons) {
      const id = await b.evaluate((el) => Array.from(el.closest("ul").children).indexOf(el.closest("li")));
      if (used.has(id)) continue;
      used.add(id);
      await b.click();
      done = true;
      break;
    }
    if (!done) fail(`card ${c} not in the hand`);
  }
}

async function perform(page, action) {
  switch (action.type) {
    case "draw":
      await page.click(action.from === "discard" ? "[data-testid=discard]" : "[data-testid=stock]");
      break;
    case "discard":
      await select(page, [action.card]);
      await page.click("[data-testid=discard-button]");
      break;
    case "meld": {
      const melds = action.melds;
      page.__declarations = melds.flat().filter((c) => c.startsWith("*=")).map((c) => c.slice(2));
      if (page.__declarations.length > 0) sawJoker = true;
      if (melds.length > 0) {
        for (const m of melds) {
          await select(page, m);
          await page.click("button:has-text('Als Kombination vormerken')");
        }
        await page.click(".hand-actions button.primary");
        await page.waitForTimeout(150);
      }
      // Lay-offs that came with the meld: one by one on their melds.
      for (const part of action.lay_offs ?? []) {
        await select(page, part.cards);
        await page.click(`[data-testid=meld-${part.meld}] button:has-text('Anlegen')`);
        await page.waitForTimeout(150);
      }
      break;
    }
    case "lay-off":
      await select(page, action.cards);
      await page.click(`[data-testid=meld-${action.meld}] button:has-text('Anlegen')`);
      break;
    case "exchange-joker":
      await select(page, [action.card]);
      await page.click(`[data-testid=meld-${action.meld}] button:has-text('Joker tauschen')`);
      break;
    default:
      fail(`no UI path for ${JSON.stringify(action)}`);
  }
  // Let the answer arrive.
  await page.waitForTimeout(150);
  const refusal = await page.$("[data-testid=refusal]");
  if (refusal) {
    const text = await refusal.textContent();
    console.log(`e2e: note: ${JSON.stringify(action)} refused: ${text}`);
    await page.click("[data-testid=refusal] button");
    return true;
  }
  return false;
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
