/** The container engines this project drives: Podman speaks Docker's CLI, with the differences noted where they matter. */
export type EngineName = 'docker' | 'podman';
