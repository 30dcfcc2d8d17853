        for (var j = lid; j < c; j += ${wg}u) {
          var h: ${E} = ${ezero};
${hsum}
          h_set(j, h);
        }
        ssync();
        s2 = ${zero};
        for (var i = lid; i < R; i += ${wg}u) {
          var x = w_get(i);
          for (var j = 0u; j < c; j++) { x -= mul(UO[uo + i * ${urs} + j * ${ucs}], h_get(j)); }
          w_set(i, x);
          s2 += ab2(x);
        }
        ssync();
