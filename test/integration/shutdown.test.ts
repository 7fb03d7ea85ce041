import { expect } from 'chai';
import { freePort } from '../helpers/harness.js';
import { spawnWeb, webReady } from '../helpers/processes.js';

describe('shutting down on a signal', function () {
  this.timeout(60_000);

  it('takes Ctrl-C delivered twice at once (terminal and npm) as one request and stops cleanly', async () => {
    const web = spawnWeb({ PORT: String(await freePort()) });
    await webReady(web);
    web.proc.kill('SIGINT');
    web.proc.kill('SIGINT');
    expect(await web.exited).to.equal(0);
    expect(web.output()).to.include('shutting down').and.not.include('forcing exit');
  });
});
