import { describe, expect, it } from "vitest";
import { accountError, resultDate } from "./account";

describe("account refusals", () => {
  it("are German by pattern and English as sentences", () => {
    expect(accountError("wrong name or password", "de")).toBe("Name oder Passwort stimmt nicht.");
    expect(accountError("the name 'Emil' already belongs to an account", "de")).toBe(
      "Den Namen „Emil“ hat schon ein Konto.",
    );
    expect(accountError("too many failed logins from this address; try again in 7 min", "de")).toBe(
      "Zu viele Fehlversuche von dieser Adresse – bitte in 7 Minuten noch einmal.",
    );
    expect(accountError("a password has at least 8 characters", "de")).toBe("Ein Passwort hat mindestens 8 Zeichen.");
    expect(accountError("wrong name or password", "en")).toBe("Wrong name or password.");
    // Unknown texts pass as the server wrote them.
    expect(accountError("database: disk full", "de")).toBe("database: disk full");
  });

  it("date results in the player's language", () => {
    const day = Date.UTC(2026, 10, 27, 12) / 1000;
    expect(resultDate(day, "de")).toMatch(/27\. Nov\.? 2026/);
    expect(resultDate(day, "en")).toMatch(/27 Nov 2026/);
  });
});
