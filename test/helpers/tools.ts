// Tests that need a system tool skip without it on a developer's machine, saying so once; with
// REQUIRE_TOOLS set (as CI sets it) a missing tool fails them instead, so CI cannot go green
// without having run a plan or opened a browser.
const told = new Set<string>();

/** Whether `name` is usable (`present` says so), failing instead of skipping under REQUIRE_TOOLS. */
export function toolPresent(name: string, present: boolean): boolean {
  if (present) return true;
  if (process.env.REQUIRE_TOOLS)
    throw new Error(`${name} is not installed, and REQUIRE_TOOLS asks every test that needs it to run`);
  if (!told.has(name)) {
    told.add(name);
    console.log(`      (skipping the tests that need ${name}: it is not installed)`);
  }
  return false;
}
