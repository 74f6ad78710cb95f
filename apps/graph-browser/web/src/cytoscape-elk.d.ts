declare module 'cytoscape-elk' {
  import type cytoscape from 'cytoscape';
  const extension: cytoscape.Ext;
  export default extension;
}
