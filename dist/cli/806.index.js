export const id = 806;
export const ids = [806];
export const modules = {

/***/ 806:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  SecretLintProfiler: () => (/* reexport */ SecretLintProfiler),
  secretLintProfiler: () => (/* binding */ secretLintProfiler)
});

;// CONCATENATED MODULE: ./node_modules/@secretlint/profiler/module/index.js
class SecretLintProfiler {
    perf;
    PerformanceObserver;
    observer;
    /**
     * Profiling costs performance.
     * `performance.mark()` and `PerformanceObserver` callback are called for each rule and each file.
     * So, the profiler should be disabled if the user does not need the profiling result.
     * https://github.com/secretlint/secretlint/issues/1633
     */
    enabled;
    entries = [];
    measures = [];
    /**
     * Set of mark names that have already been marked as `{mark}::start`
     */
    startMarkNames = new Set();
    executionPromises = [];
    constructor(options) {
        this.perf = options.perf;
        this.PerformanceObserver = options.PerformanceObserver;
        this.enabled = options.enabled ?? true;
    }
    get isEnabled() {
        return this.enabled;
    }
    /**
     * Enable or Disable the profiler.
     * If the profiler is disabled, `mark()` does nothing and collected entries are cleared.
     * @param enabled
     */
    setEnabled(enabled) {
        if (this.enabled === enabled) {
            return;
        }
        this.enabled = enabled;
        if (!enabled) {
            this.stopObserving();
        }
    }
    startObserving() {
        const pattern = /(.*?)::end(\|\|.*)?/;
        const observer = new this.PerformanceObserver((items) => {
            if (!this.enabled) {
                return;
            }
            const entries = items.getEntries();
            entries.forEach((entry) => {
                if (entry.entryType === "mark") {
                    const match = entry.name.match(pattern);
                    const endIdentifier = match ? match[1] : undefined;
                    const suffix = match && match[2] ? match[2] : "";
                    // if mark already {mark}::start, measure start to end
                    if (endIdentifier) {
                        const startMarkName = `${endIdentifier}::start${suffix}`;
                        // create measure only when the paired `{mark}::start` is already marked
                        if (this.startMarkNames.has(startMarkName)) {
                            // FIXME: avoid ERR_INVALID_PERFORMANCE_MARK error
                            this.executionPromises.push(Promise.resolve().then(() => {
                                this.perf.measure(endIdentifier + suffix, startMarkName, entry.name);
                            }));
                        }
                    }
                    else {
                        this.startMarkNames.add(entry.name);
                    }
                    this.entries.push(entry);
                }
                else if (entry.entryType === "measure") {
                    this.measures.push(entry);
                }
            });
        });
        observer.observe({ entryTypes: ["mark", "measure"] });
        this.observer = observer;
    }
    stopObserving() {
        this.observer?.disconnect();
        this.observer = undefined;
        this.entries.length = 0;
        this.measures.length = 0;
        this.executionPromises.length = 0;
        this.startMarkNames.clear();
    }
    mark(marker) {
        if (!this.enabled) {
            return;
        }
        // Start observing lazily
        // It avoids to start PerformanceObserver when the profiler is disabled before the first mark
        if (!this.observer) {
            this.startObserving();
        }
        if ("id" in marker) {
            this.perf.mark(`${marker.type}||${marker.id}`);
        }
        else {
            this.perf.mark(marker.type);
        }
    }
    waifForExecutionPromises = () => {
        return Promise.all(this.executionPromises).finally(() => {
            this.executionPromises.length = 0;
        });
    };
    async getEntries() {
        await this.waifForExecutionPromises();
        return this.entries;
    }
    async getMeasures() {
        await this.waifForExecutionPromises();
        return this.measures;
    }
}
//# sourceMappingURL=index.js.map
// EXTERNAL MODULE: external "node:perf_hooks"
var external_node_perf_hooks_ = __webpack_require__(643);
;// CONCATENATED MODULE: ./node_modules/@secretlint/profiler/module/node.js



class NullPerformanceObserver {
    disconnect() { }
    observe(_options) { }
}
const secretLintProfiler = new SecretLintProfiler({
    perf: external_node_perf_hooks_.performance,
    PerformanceObserver: external_node_perf_hooks_.PerformanceObserver ? external_node_perf_hooks_.PerformanceObserver : NullPerformanceObserver,
});
//# sourceMappingURL=node.js.map

/***/ })

};
