import { init } from 'echarts/core';
import type { ECharts, EChartsCoreOption } from 'echarts/core';
import { useEffect, useRef } from 'react';

/** How a chart is drawn and what it listens to (read at the time of each event: the latest props). */
export interface ChartBinding {
  /** SVG for a few bars (crisp, light); canvas for thousands of points (one DOM node per point would be slow). */
  renderer: 'svg' | 'canvas';
  /** A click on a datum: its series and index. */
  onClick?: (click: { seriesIndex: number; dataIndex: number }) => void;
  /** More listeners, bound once on the new instance (they read their handlers through refs). */
  listen?: (instance: ECharts) => void;
  /** Run after each new option (e.g. to turn a brush on again). */
  afterOption?: (instance: ECharts) => void;
}

/**
 * An ECharts instance on a div, shared by the results panel's charts (useECharts) and the analyzers
 * (useAnalyzerChart): created on mount, given `option` whenever it changes, resized with its box,
 * disposed on unmount. Answers the ref to put on the div (which needs a height). The chart types
 * and renderer must be registered by the caller (echarts-setup.ts, analyzer-echarts.ts).
 */
export function useChartInstance(option: EChartsCoreOption, binding: ChartBinding) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  // The latest handlers, without re-binding ECharts' listeners on every render.
  const latest = useRef(binding);
  useEffect(() => {
    latest.current = binding;
  });

  useEffect(() => {
    const element = container.current;
    if (!element) return undefined;
    const instance = init(element, null, { renderer: latest.current.renderer });
    chart.current = instance;
    instance.on('click', (params) => {
      if (typeof params.dataIndex === 'number')
        latest.current.onClick?.({ seriesIndex: params.seriesIndex ?? 0, dataIndex: params.dataIndex });
    });
    latest.current.listen?.(instance);
    // The page's columns and card heights change; ECharts does not watch its box.
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const instance = chart.current;
    if (!instance) return;
    // notMerge: a new sort or other measures must not keep series of the previous option.
    instance.setOption(option, { notMerge: true });
    latest.current.afterOption?.(instance);
  }, [option]);

  return container;
}
