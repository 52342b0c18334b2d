import { countReachable } from './parent-check.js';

// c3 -> c2 -> c1 (c1's parent is saved, so not in the graph); d1 -> c2 (a second tip sharing history)
const graph = new Map<string, string[]>([
  ['c3', ['c2']],
  ['c2', ['c1']],
  ['c1', ['saved']],
  ['d1', ['c2', 'saved']],
]);

describe('countReachable', () => {
  it("counts a sandbox's unsaved commits once each, whatever the number of tips reaching them", () => {
    expect(countReachable(graph, ['c3'], 100)).toEqual({ count: 3, stopped: false });
    expect(countReachable(graph, ['c3', 'd1', 'c2'], 100)).toEqual({ count: 4, stopped: false });
  });

  it('counts nothing for tips that are saved (not in the graph)', () => {
    expect(countReachable(graph, ['saved', 'elsewhere'], 100)).toEqual({ count: 0, stopped: false });
  });

  it('stops at the limit and says the count is a lower bound', () => {
    expect(countReachable(graph, ['c3', 'd1'], 2)).toEqual({ count: 2, stopped: true });
  });
});
