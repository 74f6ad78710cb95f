/**
 * The per-user viewer-manager daemon: socket server, supervisor, worker table, idle reclaim (issue 12).
 */
export {};
