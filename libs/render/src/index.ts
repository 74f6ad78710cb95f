/**
 * @docforge/render: the fixed built-in renderer registry (catalog, page, matrix, graph), declared views, render publication receipts and render status (issue 11; contract "Render boundary").
 */
export {};
