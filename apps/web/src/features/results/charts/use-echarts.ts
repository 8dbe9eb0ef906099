import { init } from 'echarts/core';
import type { ECharts } from 'echarts/core';
import { useEffect, useRef } from 'react';
import type { BarChartOption } from './echarts-setup.ts';
import './echarts-setup.ts';

/** What a click on a chart element tells: the index of the datum in its series. */
export interface ChartClick {
  dataIndex: number;
}

/**
 * An ECharts instance on a div: created on mount, given `option` whenever it changes, resized
 * with its box, disposed on unmount. Answers the ref to put on the div (which needs a height).
 */
export function useECharts(option: BarChartOption, onClick?: (click: ChartClick) => void) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  // The latest handler, without re-binding ECharts' listener on every render.
  const clickHandler = useRef(onClick);
  useEffect(() => {
    clickHandler.current = onClick;
  }, [onClick]);

  useEffect(() => {
    const element = container.current;
    if (!element) return undefined;
    const instance = init(element, null, { renderer: 'svg' });
    chart.current = instance;
    instance.on('click', (params) => {
      if (typeof params.dataIndex === 'number') clickHandler.current?.({ dataIndex: params.dataIndex });
    });
    // The panel's column and the card heights change with the page; ECharts does not watch its box.
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    // notMerge: a new sort or a longer list must not keep bars of the previous option.
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return container;
}
