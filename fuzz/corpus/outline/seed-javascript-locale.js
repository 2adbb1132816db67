// A locale caught mid-edit: `ordinal` lost its closing brace, so the call's object never
// closes and recovery wraps the statement in an error.
import moment from '../moment';

export default moment.defineLocale('tet', {
    months: 'Janeiru_Fevereiru_Marsu_Abril_Maiu_Juñu'.split('_'),
    weekdays: 'Domingu_Segunda_Tersa_Kuarta_Kinta'.split('_'),
    longDateFormat: {
        LT: 'HH:mm',
        L: 'DD/MM/YYYY',
    },
    meridiemParse: /PD|MT/,
    isPM: function (input) {
        return input === 'MT';
    },
    meridiem: function (hours, minutes, isLower) {
        return hours < 12 ? 'PD' : 'MT';
    },
    ordinal: function (number) {
        var b = number % 10,
            output = b === 1 ? 'st' : b === 2 ? 'nd' : 'th';
        return number + output;
    
    week: {
        dow: 1,
        doy: 4,
    },
});
