import nock from 'nock';
import { startHarness, stopHarness } from './helpers/harness.js';

/** Root hooks: one database and queue prefix per test run; the network is closed except localhost. */
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(60_000);
    nock.disableNetConnect();
    nock.enableNetConnect(/^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/);
    await startHarness();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(30_000);
    await stopHarness();
    nock.enableNetConnect();
  },
};
