export const id = 466;
export const ids = [466];
export const modules = {

/***/ 6466:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   reapAction: () => (/* binding */ reapAction)
/* harmony export */ });
async function reapAction(_settings) {
    throw new Error('mode: reap is not implemented yet.');
}


/***/ })

};
