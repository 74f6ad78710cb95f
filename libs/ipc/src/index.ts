/**
 * @docforge/ipc: NDJSON framing and version negotiation of the viewer-manager protocol v2 (issue 12; DESIGN.md section 6).
 */
export {};
